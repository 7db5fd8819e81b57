import { LockOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useEffect, useState } from 'react';
import { authApi, ssoSignInUrl } from '../../../api/authApi';
import { SSO_REQUIRED_MESSAGE } from '../../../api/contracts';
import { Flex, Text } from '../../../components/Plain';
import { PageShell } from '../../../components/PageShell';
import { useCompanyStore, useCurrentCompany } from '../../../stores/companyStore';
import { useSessionStore } from '../../../stores/sessionStore';
import { UserMenu } from '../../user-menu/components/UserMenu';

/**
 * The current company requires single sign-on and this session was made with a password or Google: its
 * data stays closed until the person signs in through the company's provider. "Continue with SSO" is
 * offered when the person's address is at one of the company's proved domains (the sign-in page's own
 * check); the user menu still switches to their other companies.
 */
export default function SsoRequiredView() {
  const company = useCurrentCompany();
  const email = useSessionStore((s) => s.user?.email ?? null);
  const others = useCompanyStore((s) => s.companies.filter((c) => c.id !== s.currentCompanyId).length);
  const [offered, setOffered] = useState<boolean | null>(null);

  useEffect(() => {
    if (!email) return;
    let live = true;
    authApi.ssoLookup(email).then(
      (answer) => live && setOffered(answer.sso),
      () => live && setOffered(false),
    );
    return () => {
      live = false;
    };
  }, [email]);

  return (
    <PageShell
      header={
        <>
          <Flex align="center" style={{ flex: 1, minWidth: 0 }}>
            <Text strong ellipsis data-testid="header-company-name">
              {company?.name}
            </Text>
          </Flex>
          <UserMenu />
        </>
      }
    >
      <Result
        icon={<LockOutlined aria-hidden />}
        title={<h1 style={{ margin: 0, font: 'inherit' }}>Single sign-on required</h1>}
        subTitle={SSO_REQUIRED_MESSAGE}
        extra={
          <Flex vertical align="center" gap="middle">
            {offered && email && (
              <Button type="primary" onClick={() => window.location.assign(ssoSignInUrl(email))}>
                Continue with SSO
              </Button>
            )}
            {offered === false && (
              <Text type="secondary" role="status">
                Your address is not at a domain {company?.name ?? 'this company'} signs in with. Ask one of
                its owners for help.
              </Text>
            )}
            {others > 0 && <Text type="secondary">Your other companies are in the user menu.</Text>}
          </Flex>
        }
      />
    </PageShell>
  );
}
