// vite.catalogues.ts: a surface's messages in one language, compiled.
declare module 'virtual:catalogue/*' {
  import type { Messages } from '@lingui/core';
  const messages: Messages;
  export default messages;
}
