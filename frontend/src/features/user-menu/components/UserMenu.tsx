import { Button, type MenuProps } from 'antd';
import { useState, type ComponentType } from 'react';
import { useNavigate } from 'react-router-dom';
import { AvatarImage } from '../../../components/AvatarImage';
import { useIsMobile } from '../../../hooks/useMediaQuery';
import { useCompanyStore } from '../../../stores/companyStore';
import { useSessionStore } from '../../../stores/sessionStore';
import { useAuthActions } from '../../auth/hooks/useAuthActions';
import { useCompanyActions } from '../../companies/hooks/useCompanyActions';
import { DeferredTrigger } from '../../../components/DeferredTrigger';
import { lazyDialog } from '../../../components/lazyDialog';
import type { UserMenuDropdownProps } from './UserMenuDropdown';
import { COMPANY_KEY_PREFIX } from './userMenuKeys';

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

// The menu itself (antd's Dropdown and Menu, its entries and icons): loaded when the button is first
// hovered, focused or used.
let userMenuDropdown: ComponentType<UserMenuDropdownProps> | null = null;
const loadUserMenuDropdown = () =>
  import('./UserMenuDropdown').then((m) => (userMenuDropdown = m.UserMenuDropdown));

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

  const avatarButton = (
    <Button type="text" shape="circle" aria-label="User menu" style={{ padding: 0, flexShrink: 0 }}>
      <AvatarImage src={user?.avatar} name={user?.name} fallback="initial" />
    </Button>
  );

  return (
    <>
      <DeferredTrigger<UserMenuDropdownProps>
        load={loadUserMenuDropdown}
        loaded={userMenuDropdown}
        placeholder={avatarButton}
        props={{
          user,
          companies,
          currentCompanyId,
          isMobile,
          onClick,
          onOpenChange: (open) => open && preloadDialogs(),
          children: avatarButton,
        }}
      />
      <ProfileSettingsDialog open={dialog === 'profile'} onClose={() => setDialog(null)} />
      <SettingsDialog open={dialog === 'settings'} onClose={() => setDialog(null)} />
      <CreateCompanyDialog open={dialog === 'create-company'} onClose={() => setDialog(null)} />
    </>
  );
}
