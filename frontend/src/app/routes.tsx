import { lazy } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { RedirectIfSignedIn, RequireAuth } from './AuthGate';
import { chatPage, signInPage } from '../boot/pageLoaders';
import { RootLayout } from './RootLayout';

// Every page is its own chunk: antd screens are heavy and only the current one is needed.
const SignInPage = signInPage.Page;
const RegisterPage = lazy(() => import('../pages/RegisterPage').then((m) => ({ default: m.RegisterPage })));
const ForgotPasswordPage = lazy(() =>
  import('../pages/ForgotPasswordPage').then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordPage = lazy(() =>
  import('../pages/ResetPasswordPage').then((m) => ({ default: m.ResetPasswordPage })),
);
const VerifyEmailPage = lazy(() =>
  import('../pages/VerifyEmailPage').then((m) => ({ default: m.VerifyEmailPage })),
);
const VerifyDomainPage = lazy(() =>
  import('../pages/VerifyDomainPage').then((m) => ({ default: m.VerifyDomainPage })),
);
const ConfirmEmailPage = lazy(() =>
  import('../pages/ConfirmEmailPage').then((m) => ({ default: m.ConfirmEmailPage })),
);
const ChatPage = chatPage.Page;
const WebhookTestPage = lazy(() =>
  import('../pages/WebhookTestPage').then((m) => ({ default: m.WebhookTestPage })),
);
const CompanyAdminPage = lazy(() =>
  import('../pages/CompanyAdminPage').then((m) => ({ default: m.CompanyAdminPage })),
);
const adminPage = (name: keyof typeof import('../pages/CompanyAdminPages')) =>
  lazy(() => import('../pages/CompanyAdminPages').then((m) => ({ default: m[name] })));
const CompanyUsersPage = adminPage('CompanyUsersPage');
const CompanyInvitationsPage = adminPage('CompanyInvitationsPage');
const CompanyAgentsPage = adminPage('CompanyAgentsPage');
const CompanySettingsPage = adminPage('CompanySettingsPage');
const CompanyDetailsPage = adminPage('CompanyDetailsPage');
const CompanyActivityPage = adminPage('CompanyActivityPage');
const CompanyInsightsPage = adminPage('CompanyInsightsPage');
// Its own chunk: only the managers who open it load it.
const CompanyDeliveriesPage = lazy(() =>
  import('../features/company-admin/deliveries/DeliveryLog').then((m) => ({ default: m.DeliveryLog })),
);
const InvitationPage = lazy(() =>
  import('../pages/InvitationPage').then((m) => ({ default: m.InvitationPage })),
);
const PlatformAdminPage = lazy(() =>
  import('../pages/PlatformAdminPage').then((m) => ({ default: m.PlatformAdminPage })),
);
const platformPage = (name: keyof typeof import('../pages/PlatformAdminPages')) =>
  lazy(() => import('../pages/PlatformAdminPages').then((m) => ({ default: m[name] })));
const PlatformSettingsPage = platformPage('PlatformSettingsPage');
const PlatformColorsPage = platformPage('PlatformColorsPage');
const PlatformUsersPage = platformPage('PlatformUsersPage');
const PlatformCompaniesPage = platformPage('PlatformCompaniesPage');
const PlatformAgentsPage = platformPage('PlatformAgentsPage');
const PlatformSecurityPage = platformPage('PlatformSecurityPage');
const WebhookSignaturesPage = lazy(() =>
  import('../pages/WebhookSignaturesPage').then((m) => ({ default: m.WebhookSignaturesPage })),
);
const NotFoundPage = lazy(() => import('../pages/NotFoundPage').then((m) => ({ default: m.NotFoundPage })));

/** The one route table. */
export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        path: '/',
        element: (
          <RedirectIfSignedIn>
            <SignInPage />
          </RedirectIfSignedIn>
        ),
      },
      { path: '/register', element: <RegisterPage /> },
      // Public: the invitation page itself decides between accepting, signing up and signing in.
      { path: '/invitation', element: <InvitationPage /> },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      // Emailed links: public, and they work whether or not this browser is signed in.
      { path: '/verify-email', element: <VerifyEmailPage /> },
      { path: '/verify-domain', element: <VerifyDomainPage /> },
      { path: '/confirm-email', element: <ConfirmEmailPage /> },
      {
        path: '/chat',
        element: (
          <RequireAuth>
            <ChatPage />
          </RequireAuth>
        ),
      },
      {
        path: '/webhook-test',
        element: (
          <RequireAuth>
            <WebhookTestPage />
          </RequireAuth>
        ),
      },
      {
        path: '/company/admin',
        element: (
          <RequireAuth>
            <CompanyAdminPage />
          </RequireAuth>
        ),
        // Owners and admins only: the layout sends anyone else to /chat.
        children: [
          // The landing (also after accepting an invitation, with ?company=): the Users page.
          { index: true, element: <Navigate to="users" replace /> },
          { path: 'users', element: <CompanyUsersPage /> },
          { path: 'invitations', element: <CompanyInvitationsPage /> },
          { path: 'agents', element: <CompanyAgentsPage /> },
          { path: 'settings', element: <CompanySettingsPage /> },
          { path: 'details', element: <CompanyDetailsPage /> },
          { path: 'activity', element: <CompanyActivityPage /> },
          { path: 'insights', element: <CompanyInsightsPage /> },
          { path: 'deliveries', element: <CompanyDeliveriesPage /> },
        ],
      },
      {
        path: '/admin',
        element: (
          <RequireAuth>
            <PlatformAdminPage />
          </RequireAuth>
        ),
        // Superadmins only: the layout sends anyone else to /chat.
        children: [
          { index: true, element: <Navigate to="settings" replace /> },
          { path: 'settings', element: <PlatformSettingsPage /> },
          { path: 'colors', element: <PlatformColorsPage /> },
          { path: 'users', element: <PlatformUsersPage /> },
          { path: 'companies', element: <PlatformCompaniesPage /> },
          { path: 'agents', element: <PlatformAgentsPage /> },
          { path: 'security', element: <PlatformSecurityPage /> },
        ],
      },
      // Help for agents' webhooks: public, opened from Settings → Agents → Details in a new tab.
      { path: '/docs/webhook-signatures', element: <WebhookSignaturesPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
