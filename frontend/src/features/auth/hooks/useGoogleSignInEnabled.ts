import { useEffect, useState } from 'react';
import { authApi } from '../../../api/authApi';

/** Whether this installation offers Google sign-in (false until it has said so). */
export function useGoogleSignInEnabled(): boolean {
  const [enabled, setEnabled] = useState(false);
  useEffect(() => {
    let active = true;
    authApi
      .providers()
      .then((providers) => {
        if (active) setEnabled(providers.google);
      })
      // Not a user action: without the providers answer the Google button simply stays hidden.
      .catch(() => undefined);
    return () => {
      active = false;
    };
  }, []);
  return enabled;
}
