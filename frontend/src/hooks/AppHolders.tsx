import { message, Modal, notification as antdNotification } from 'antd';
import type { useAppProps } from 'antd/es/app/context';
import type { NotificationConfig } from 'antd/es/notification/interface';
import { useEffect, useMemo } from 'react';

/**
 * antd's toast, message and confirm-dialog hooks and the elements they render into, as antd's `App`
 * makes them (loaded after the first screen by appApi.tsx's AppShell, which hands the APIs out).
 */
export default function AppHolders({
  notification,
  onReady,
}: {
  notification: NotificationConfig;
  onReady: (apis: useAppProps) => void;
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
