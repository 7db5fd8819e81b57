import { Foundation1763770000000 } from './1763770000000-foundation';
import { AgentsChats1763780000000 } from './1763780000000-agents-chats';

/** Applied in order at boot; the schema never changes any other way. */
export const MIGRATIONS = [Foundation1763770000000, AgentsChats1763780000000];
