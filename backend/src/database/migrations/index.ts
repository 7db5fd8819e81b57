import { Foundation1763770000000 } from './1763770000000-foundation';
import { AgentsChats1763780000000 } from './1763780000000-agents-chats';
import { AccountSecurity1763790000000 } from './1763790000000-account-security';
import { Invitations1763800000000 } from './1763800000000-invitations';

/** Applied in order at boot; the schema never changes any other way. */
export const MIGRATIONS = [
  Foundation1763770000000,
  AgentsChats1763780000000,
  AccountSecurity1763790000000,
  Invitations1763800000000,
];
