// The compiled server reads its SQL migrations next to itself (dist/node/server/platform/db/migrations).
import { cpSync } from 'node:fs';

cpSync('src/server/platform/db/migrations', 'dist/node/server/platform/db/migrations', { recursive: true });
