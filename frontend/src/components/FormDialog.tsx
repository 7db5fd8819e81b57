import { Button, Flex, Form, Modal, type FormInstance, type FormProps } from 'antd';
import { useState, type ReactNode } from 'react';

export interface FormDialogProps<V> {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  form: FormInstance<V>;
  /** The form's name: its fields' ids start with it. */
  name: string;
  initialValues?: FormProps<V>['initialValues'];
  /** Saves the values; true when done, and the form then clears and the dialog closes. */
  onSubmit: (values: V) => Promise<boolean>;
  submitLabel: string;
  /** The submit button's text while saving ('Creating...', 'Sending...'). */
  busyLabel: string;
  /** While saving the submit button spins; otherwise it is disabled. */
  spinWhileBusy?: boolean;
  /** False keeps the submit button disabled (the form is not filled in enough yet). */
  canSubmit?: boolean;
  children: ReactNode;
}

/** A dialog holding one form: its fields, then Cancel and the submit button. */
export function FormDialog<V>({
  open,
  onClose,
  title,
  form,
  name,
  initialValues,
  onSubmit,
  submitLabel,
  busyLabel,
  spinWhileBusy = false,
  canSubmit = true,
  children,
}: FormDialogProps<V>) {
  const [busy, setBusy] = useState(false);

  const submit = async (values: V) => {
    setBusy(true);
    const done = await onSubmit(values);
    setBusy(false);
    if (done) {
      form.resetFields();
      onClose();
    }
  };

  return (
    <Modal open={open} title={title} onCancel={onClose} footer={null} destroyOnHidden>
      <Form<V>
        form={form}
        name={name}
        layout="vertical"
        initialValues={initialValues}
        onFinish={(values) => void submit(values)}
      >
        {children}
        <Flex justify="end" gap="small">
          <Button onClick={onClose}>Cancel</Button>
          <Button
            type="primary"
            htmlType="submit"
            loading={spinWhileBusy && busy}
            disabled={!spinWhileBusy && (!canSubmit || busy)}
          >
            {busy ? busyLabel : submitLabel}
          </Button>
        </Flex>
      </Form>
    </Modal>
  );
}
