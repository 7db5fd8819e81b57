import { useEffect } from 'react';
import { App } from './appApi';

/** While `denied`, says so in a toast ('Access denied', with why); `key` keeps it to one toast. */
export function useAccessDeniedNotice(denied: boolean, key: string, description: string): void {
  const { notification } = App.useApp();
  useEffect(() => {
    if (denied) notification.error({ key, title: 'Access denied', description });
  }, [denied, key, description, notification]);
}
