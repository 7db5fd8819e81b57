import type { ReactNode } from 'react';
import { BrandLogo } from '../../../components/BrandLogo';
import './AuthCard.css';

interface AuthCardProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/**
 * The centred card shared by the sign-in, registration and password screens: antd's Layout, Flex and
 * Card look, drawn with plain elements on antd's CSS variables (AuthCard.css). The components would
 * bring Layout's Sider, Flex and Card's Tabs to every signed-out page.
 */
export function AuthCard({ title, description, children, footer }: AuthCardProps) {
  return (
    <div className="sb-auth-page">
      <main className="sb-auth-main">
        <div className="sb-auth-card">
          <div className="sb-auth-heading">
            <BrandLogo size={40} alt="Switchboard" />
            {/* Typography's look, drawn in AuthCard.css: Typography (with its Tooltip and TextArea for
                copy and edit) is about 19 KB gzip the sign-in page does not otherwise need. */}
            <h1 className="sb-auth-title">{title}</h1>
            {description && <span className="sb-auth-description">{description}</span>}
          </div>
          {children}
          {footer && <div className="sb-auth-footer">{footer}</div>}
        </div>
      </main>
    </div>
  );
}
