// What the card frame does with the page's messages (docs/payments.md, "The frame's messages"). A message is data
// from another document: only the checkout's origin, from the window that framed this one, in the protocol's shape.
import { readPageMessage, type PageMessage } from '../domain/card-frame-messages.js';

type Handlers = { [Type in PageMessage['type']]: (message: Extract<PageMessage, { type: Type }>) => void };

/** The frame's `message` listener: each of the page's messages to its handler, anything else dropped. */
export function pageMessageListener(
  expected: { checkoutOrigin: string; parent: unknown },
  handlers: Handlers,
): (event: { origin: string; source: unknown; data: unknown }) => void {
  return (event) => {
    if (event.origin !== expected.checkoutOrigin || event.source !== expected.parent) return;
    const message = readPageMessage(event.data);
    if (!message) return;
    (handlers[message.type] as (message: PageMessage) => void)(message);
  };
}
