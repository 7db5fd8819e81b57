import { useEffect, useState } from 'react';
import type { InvitationLookup } from '../../../api/contracts';
import { invitationsApi } from '../../../api/invitationsApi';

export type LookupState =
  { status: 'loading' } | { status: 'valid'; invitation: InvitationLookup } | { status: 'invalid' };

/** What a token names, if it is a pending, unexpired invitation (any failure reads as invalid). */
export function useInvitationLookup(token: string | null): LookupState {
  const [state, setState] = useState<{ token: string | null; result: LookupState }>({
    token: null,
    result: { status: 'loading' },
  });

  useEffect(() => {
    if (!token) return;
    let live = true;
    invitationsApi.lookup(token).then(
      (invitation) => live && setState({ token, result: { status: 'valid', invitation } }),
      () => live && setState({ token, result: { status: 'invalid' } }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  return state.token === token ? state.result : { status: 'loading' };
}
