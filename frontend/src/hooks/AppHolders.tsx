import { message, Modal, notification as antdNotification, type App } from 'antd';
import { useEffect, useMemo } from 'react';

/** What antd's `App.useApp()` hands out: the toast, message and confirm-dialog APIs. */
export type AppApis = ReturnType<typeof App.useApp>;
/** Where and how toasts show (placement, offset...). */
export type NotificationConfig = NonNullable<Parameters<typeof antdNotification.useNotification>[0]>;

/**
 * antd's toast, message and confirm-dialog hooks and the elements they render into, as antd's `App`
 * makes them (loaded after the first screen by appApi.tsx's AppShell, which hands the APIs out).
 */
export default function AppHolders({
  notification,
  onReady,
}: {
  notification: NotificationConfig;
  onReady: (apis: AppApis) => void;
}) {
  const [messageApi, messageHolder] = message.useMessage();
  const [notificationApi, notificationHolder] = antdNotification.useNotification(notification);
  const [modalApi, modalHolder] = Modal.useModal();
  const apis = useMemo(
    () => ({ message: messageApi, notification: notificationApi, modal: modalApi }),
    [messageApi, notificationApi, modalApi],
  );
  useEffect(() => onReady(apis), [onReady, apis]);
  return (
    <>
      {modalHolder}
      {messageHolder}
      {notificationHolder}
    </>
  );
}
