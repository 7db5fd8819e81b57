import { useEffect, useState } from 'react';
import { authApi } from '../../../api/authApi';

/** Typing pauses this long before the address is looked up (the lookup is rate-limited). */
const LOOKUP_DELAY_MS = 400;

/**
 * The address, once the server said its company signs in with single sign-on; null otherwise (no valid
 * address yet, none offered, or the lookup failed: password and Google stay as they are).
 */
export function useSsoOffered(email: string | null): string | null {
  const [offered, setOffered] = useState<string | null>(null);

  useEffect(() => {
    if (!email) {
      setOffered(null);
      return;
    }
    let active = true;
    const timer = setTimeout(() => {
      authApi.ssoLookup(email).then(
        ({ sso }) => {
          if (active) setOffered(sso ? email : null);
        },
        () => {
          if (active) setOffered(null);
        },
      );
    }, LOOKUP_DELAY_MS);
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, [email]);

  return offered === email ? offered : null;
}
