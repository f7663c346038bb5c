// The compiled server reads its SQL migrations next to itself (dist/node/server/db/migrations).
import { cpSync } from 'node:fs';

cpSync('src/server/db/migrations', 'dist/node/server/db/migrations', { recursive: true });
