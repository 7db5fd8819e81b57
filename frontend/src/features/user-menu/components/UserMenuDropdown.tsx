import {
  CheckOutlined,
  CrownOutlined,
  LogoutOutlined,
  PlusOutlined,
  SafetyOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Flex, Typography, type MenuProps } from 'antd';
import Dropdown from 'antd/es/dropdown';
import type { ReactElement } from 'react';
import type { CompanyMembership, User } from '../../../api/contracts';
import { canAccessCompanyAdmin, canAccessPlatformAdmin } from '../../../lib/access';
import { COMPANY_KEY_PREFIX } from './userMenuKeys';

export interface UserMenuDropdownProps {
  user: User | null;
  companies: CompanyMembership[];
  currentCompanyId: string | null;
  /** On a phone the header has no room for the user's name and company: they are shown here instead. */
  isMobile: boolean;
  onClick: MenuProps['onClick'];
  onOpenChange: (open: boolean) => void;
  /** The trigger: the avatar button. */
  children: ReactElement;
}

/**
 * The user menu's Dropdown and entries (with their icons), loaded when its button is first hovered,
 * focused or used (UserMenu): none of it is needed to show the chat.
 */
export function UserMenuDropdown({
  user,
  companies,
  currentCompanyId,
  isMobile,
  onClick,
  onOpenChange,
  children,
}: UserMenuDropdownProps) {
  const currentCompany = companies.find((c) => c.id === currentCompanyId) ?? null;
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

  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      onOpenChange={onOpenChange}
      menu={{
        items,
        onClick,
        selectable: true,
        selectedKeys: currentCompanyId ? [`${COMPANY_KEY_PREFIX}${currentCompanyId}`] : [],
      }}
    >
      {children}
    </Dropdown>
  );
}
