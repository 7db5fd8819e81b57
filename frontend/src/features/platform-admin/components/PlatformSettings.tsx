import { UploadOutlined } from '@ant-design/icons';
import { HEX_COLOR_PATTERN, INVALID_COLOR_MESSAGE } from '@contracts/platform-appearance';
import { Button, Card, ColorPicker, Flex, Form, Input, Upload } from 'antd';
import { useState } from 'react';
import type { AppearanceAsset } from '../../../api/appearanceApi';
import { AdminPageHeader } from '../../../components/AdminPageHeader';
import { isShownAssetUrl, useAppearanceStore } from '../../../stores/appearanceStore';
import { useAppearanceActions } from '../appearance/useAppearanceActions';
import { useLoadOnVisit } from '../appearance/useLoadOnVisit';
import { SettingsLoadStatus } from './SettingsLoadStatus';

interface SettingsValues {
  logoUrl: string;
  faviconUrl: string;
  accentColor: string;
}

const FORM_NAME = 'platform-settings';

/** Blank (the built-in image), an https address or a path on this site: what the server accepts. */
function urlRule(field: string) {
  return {
    validator: (_rule: unknown, value: string | undefined) => {
      const v = (value ?? '').trim();
      return v === '' || isShownAssetUrl(v)
        ? Promise.resolve()
        : Promise.reject(
            new Error(`${field} must be an https:// address or a path on this site starting with /.`),
          );
    },
  };
}

const ACCEPT: Record<AppearanceAsset, string> = {
  logo: 'image/png,image/jpeg,image/webp,image/gif',
  favicon: '.ico,.png,image/png,image/x-icon,image/vnd.microsoft.icon',
};

/** Platform Admin → Settings: the 'Application Settings' card (logo, favicon, accent colour). */
export function PlatformSettings() {
  const actions = useAppearanceActions();
  const status = useLoadOnVisit(() => actions.loadSettings());
  const [form] = Form.useForm<SettingsValues>();
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState<AppearanceAsset | null>(null);
  const accent = Form.useWatch('accentColor', form) ?? '';
  const logoUrl = Form.useWatch('logoUrl', form) ?? '';

  if (status !== 'loaded') return <SettingsLoadStatus status={status} what="settings" />;

  const { appearance } = useAppearanceStore.getState();
  const initialValues: SettingsValues = {
    logoUrl: appearance.logoUrl ?? '',
    faviconUrl: appearance.faviconUrl ?? '',
    accentColor: appearance.accentColor,
  };

  const save = async (values: SettingsValues) => {
    setSaving(true);
    const saved = await actions.saveSettings({
      logoUrl: values.logoUrl.trim() || null,
      faviconUrl: values.faviconUrl.trim() || null,
      accentColor: values.accentColor.trim(),
    });
    setSaving(false);
    if (saved) {
      form.setFieldsValue({
        logoUrl: saved.logoUrl ?? '',
        faviconUrl: saved.faviconUrl ?? '',
        accentColor: saved.accentColor,
      });
    }
  };

  const upload = async (kind: AppearanceAsset, file: File) => {
    setUploading(kind);
    const url = await actions.upload(kind, file);
    setUploading(null);
    if (url) form.setFieldValue(kind === 'logo' ? 'logoUrl' : 'faviconUrl', url);
  };

  const uploadButton = (kind: AppearanceAsset, label: string) => (
    <Upload
      accept={ACCEPT[kind]}
      showUploadList={false}
      maxCount={1}
      beforeUpload={(file) => {
        void upload(kind, file);
        return false;
      }}
    >
      <Button icon={<UploadOutlined />} loading={uploading === kind} disabled={uploading !== null}>
        {label}
      </Button>
    </Upload>
  );

  const validAccent = HEX_COLOR_PATTERN.test(accent.trim());
  const previewLogo = logoUrl.trim();

  return (
    <>
      <AdminPageHeader title="Platform Settings" description="Branding shown to everyone, signed in or not" />
      <Card title="Application Settings" style={{ maxWidth: 640 }}>
        <Form<SettingsValues>
          form={form}
          name={FORM_NAME}
          layout="vertical"
          initialValues={initialValues}
          onFinish={(values) => void save(values)}
        >
          <Form.Item label="Logo URL" htmlFor={`${FORM_NAME}_logoUrl`} extra="Recommended size: 150x50px">
            <Flex gap="small" wrap>
              <Form.Item name="logoUrl" noStyle rules={[urlRule('Logo URL')]}>
                <Input
                  id={`${FORM_NAME}_logoUrl`}
                  placeholder="https://example.com/logo.png"
                  maxLength={2048}
                  style={{ flex: 1, minWidth: 220 }}
                />
              </Form.Item>
              {uploadButton('logo', 'Upload logo')}
            </Flex>
          </Form.Item>
          {previewLogo && isShownAssetUrl(previewLogo) && (
            <div style={{ marginTop: -8, marginBottom: 24 }}>
              <img src={previewLogo} alt="Logo preview" style={{ maxHeight: 50, maxWidth: 150 }} />
            </div>
          )}

          <Form.Item
            label="Favicon URL"
            htmlFor={`${FORM_NAME}_faviconUrl`}
            extra="Recommended format: .ico or .png"
          >
            <Flex gap="small" wrap>
              <Form.Item name="faviconUrl" noStyle rules={[urlRule('Favicon URL')]}>
                <Input
                  id={`${FORM_NAME}_faviconUrl`}
                  placeholder="https://example.com/favicon.ico"
                  maxLength={2048}
                  style={{ flex: 1, minWidth: 220 }}
                />
              </Form.Item>
              {uploadButton('favicon', 'Upload favicon')}
            </Flex>
          </Form.Item>

          <Form.Item
            label="Accent Color"
            htmlFor={`${FORM_NAME}_accentColor`}
            required
            extra="HEX color code, e.g. #9b87f5. Saving a new accent also makes it the primary color of both themes."
          >
            <Flex gap="small" align="center">
              <ColorPicker
                disabledAlpha
                format="hex"
                value={validAccent ? accent.trim() : undefined}
                onChange={(color) => form.setFieldValue('accentColor', color.toHexString())}
              >
                <Button
                  aria-label="Pick accent color"
                  style={{ width: 40, padding: 0, background: validAccent ? accent.trim() : undefined }}
                />
              </ColorPicker>
              <Form.Item
                name="accentColor"
                noStyle
                rules={[
                  { required: true, message: INVALID_COLOR_MESSAGE },
                  { pattern: HEX_COLOR_PATTERN, message: INVALID_COLOR_MESSAGE },
                ]}
              >
                <Input
                  id={`${FORM_NAME}_accentColor`}
                  placeholder="#9b87f5"
                  maxLength={7}
                  style={{ width: 140 }}
                />
              </Form.Item>
            </Flex>
          </Form.Item>

          <Button type="primary" htmlType="submit" disabled={saving || uploading !== null}>
            {saving ? 'Saving Changes' : 'Save Changes'}
          </Button>
        </Form>
      </Card>
    </>
  );
}
