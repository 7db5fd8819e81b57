import { SearchOutlined } from '@ant-design/icons';
import type { ComponentType } from 'react';
import { DeferredTrigger } from '../../../components/DeferredTrigger';
import '../../../components/nativeInput.css';

interface ChatSearchProps {
  onNavigate?: () => void;
}

let chatSearch: ComponentType<ChatSearchProps> | null = null;
const loadChatSearch = () =>
  import('../../search/components/ChatSearch').then((m) => (chatSearch = m.ChatSearch));

/**
 * The sidebar's search box (ChatSearch), whose code (with antd's Input and its Search, Password and
 * OTP, about 11 KB gzip) loads right after the chat's first paint instead of before it, or at once
 * when the box is hovered or focused. Until then the box is drawn as ChatSearch draws it, read-only;
 * the real one takes its place (and its focus).
 */
export function DeferredChatSearch({ onNavigate }: ChatSearchProps) {
  return (
    <DeferredTrigger<ChatSearchProps>
      load={loadChatSearch}
      loaded={chatSearch}
      eager
      props={{ onNavigate }}
      placeholder={
        <span className="sb-input sb-input-affix">
          <span className="sb-input-prefix">
            <SearchOutlined aria-hidden />
          </span>
          <input type="search" aria-label="Search chats" placeholder="Search chats" readOnly />
        </span>
      }
    />
  );
}
