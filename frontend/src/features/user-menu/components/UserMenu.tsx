import {
  CheckOutlined,
  CrownOutlined,
  LogoutOutlined,
  PlusOutlined,
  SafetyOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Button, Dropdown, Flex, Typography, type MenuProps } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { canAccessCompanyAdmin, canAccessPlatformAdmin } from '../../../app/access';
import { AvatarImage } from '../../../components/AvatarImage';
import { useIsMobile } from '../../../hooks/useMediaQuery';
import { useCompanyStore } from '../../companies/companyStore';
import { useSessionStore } from '../../auth/sessionStore';
import { useAuthActions } from '../../auth/hooks/useAuthActions';
import { useCompanyActions } from '../../companies/hooks/useCompanyActions';
import { lazyDialog } from '../../../components/lazyDialog';

// Loaded when first opened (or when the menu opens): none of them is needed to show the chat.
const ProfileSettingsDialog = lazyDialog(() =>
  import('../../profile/components/ProfileSettingsDialog').then((m) => m.ProfileSettingsDialog),
);
const SettingsDialog = lazyDialog(() =>
  import('../../settings/components/SettingsDialog').then((m) => m.SettingsDialog),
);
const CreateCompanyDialog = lazyDialog(() =>
  import('../../companies/components/CreateCompanyDialog').then((m) => m.CreateCompanyDialog),
);
const preloadDialogs = () => {
  ProfileSettingsDialog.preload();
  SettingsDialog.preload();
  CreateCompanyDialog.preload();
};

const COMPANY_KEY_PREFIX = 'company:';

type OpenDialog = 'profile' | 'settings' | 'create-company' | null;

export function UserMenu() {
  const actions = useAuthActions();
  const navigate = useNavigate();
  const user = useSessionStore((s) => s.user);
  const companies = useCompanyStore((s) => s.companies);
  const currentCompanyId = useCompanyStore((s) => s.currentCompanyId);
  const { switchCompany } = useCompanyActions();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  // On a phone the header has no room for the user's name and company: they are shown here instead.
  const isMobile = useIsMobile();

  const currentCompany = companies.find((c) => c.id === currentCompanyId) ?? null;

  const logOut = async () => {
    if (await actions.logOut()) void navigate('/', { replace: true });
  };

  const items: MenuProps['items'] = [
    {
      key: 'identity',
      type: 'group',
      label: (
        <Flex vertical>
          <Typography.Text strong data-testid={isMobile ? 'menu-user-name' : undefined}>
            {user?.name || 'User'}
          </Typography.Text>
          <Typography.Text type="secondary">{user?.email}</Typography.Text>
          {isMobile && currentCompany && (
            <Typography.Text type="secondary" data-testid="menu-company-name">
              {currentCompany.name}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    { type: 'divider' },
    { key: 'profile', label: 'Profile', icon: <UserOutlined aria-hidden /> },
    { key: 'settings', label: 'Settings', icon: <SettingOutlined aria-hidden /> },
    { type: 'divider' },
    {
      key: 'companies',
      type: 'group',
      label: 'Companies',
      children: [
        ...companies.map((company) => ({
          key: `${COMPANY_KEY_PREFIX}${company.id}`,
          label:
            company.id === currentCompanyId ? <span aria-current="true">{company.name}</span> : company.name,
          icon:
            company.id === currentCompanyId ? (
              <CheckOutlined aria-label="Current company" />
            ) : (
              <span aria-hidden />
            ),
        })),
        { key: 'create-company', label: 'Create Company', icon: <PlusOutlined aria-hidden /> },
      ],
    },
    ...(canAccessCompanyAdmin(currentCompany?.role) || canAccessPlatformAdmin(user)
      ? [{ type: 'divider' as const }]
      : []),
    ...(canAccessCompanyAdmin(currentCompany?.role)
      ? [{ key: 'company-admin', label: 'Company Admin', icon: <SafetyOutlined aria-hidden /> }]
      : []),
    ...(canAccessPlatformAdmin(user)
      ? [{ key: 'platform-admin', label: 'Platform Admin', icon: <CrownOutlined aria-hidden /> }]
      : []),
    { type: 'divider' },
    { key: 'logout', label: 'Log out', icon: <LogoutOutlined aria-hidden />, danger: true },
  ];

  const onClick: MenuProps['onClick'] = ({ key, domEvent }) => {
    // Chosen with Enter: the key's default action must not land on the dialog this opens (it would
    // press the dialog's close button the moment it gets focus).
    domEvent.preventDefault();
    if (key.startsWith(COMPANY_KEY_PREFIX)) {
      const id = key.slice(COMPANY_KEY_PREFIX.length);
      if (id !== currentCompanyId) void switchCompany(id);
      return;
    }
    switch (key) {
      case 'profile':
        setDialog('profile');
        break;
      case 'settings':
        setDialog('settings');
        break;
      case 'create-company':
        setDialog('create-company');
        break;
      case 'company-admin':
        void navigate(currentCompany ? `/company/admin?company=${currentCompany.id}` : '/company/admin');
        break;
      case 'platform-admin':
        void navigate('/admin/settings');
        break;
      case 'logout':
        void logOut();
        break;
    }
  };

  return (
    <>
      <Dropdown
        trigger={['click']}
        placement="bottomRight"
        onOpenChange={(open) => open && preloadDialogs()}
        menu={{
          items,
          onClick,
          selectable: true,
          selectedKeys: currentCompanyId ? [`${COMPANY_KEY_PREFIX}${currentCompanyId}`] : [],
        }}
      >
        <Button type="text" shape="circle" aria-label="User menu" style={{ padding: 0, flexShrink: 0 }}>
          <AvatarImage src={user?.avatar} name={user?.name} fallback="initial" />
        </Button>
      </Dropdown>
      <ProfileSettingsDialog open={dialog === 'profile'} onClose={() => setDialog(null)} />
      <SettingsDialog open={dialog === 'settings'} onClose={() => setDialog(null)} />
      <CreateCompanyDialog open={dialog === 'create-company'} onClose={() => setDialog(null)} />
    </>
  );
}
