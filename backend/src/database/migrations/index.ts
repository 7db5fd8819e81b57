import { Foundation1763770000000 } from './1763770000000-foundation';

/** Applied in order at boot; the schema never changes any other way. */
export const MIGRATIONS = [Foundation1763770000000];
