/**
 * A field checked on blur may show a message that moves what is below it. When the blur came from pressing a mouse
 * button (or a tap) elsewhere, the message appeared between the press and the release: the button pressed moved away
 * from under the pointer and the click was lost. So a change that moves the layout waits for the release and the click
 * it makes; with nothing pressed (Tab, a script) it happens at once.
 */
let pressed = false;
let waiting: (() => void)[] = [];

function release(): void {
  if (!pressed) return;
  pressed = false;
  // After the click the release dispatches in the same task (mouseup, then click).
  window.setTimeout(() => {
    const run = waiting;
    waiting = [];
    for (const apply of run) apply();
  }, 0);
}

if (typeof document !== 'undefined') {
  // Capture, so a handler that stops the event further down cannot hide it; mousedown comes before the focus moves.
  document.addEventListener('mousedown', () => (pressed = true), true);
  for (const type of ['mouseup', 'dragend', 'pointercancel'] as const)
    document.addEventListener(type, release, true);
  // The button may be released outside the window after it lost focus.
  window.addEventListener('blur', release);
}

/** Runs `apply` now, or once the pressed mouse button is released and its click is dispatched. */
export function afterPointerRelease(apply: () => void): void {
  if (pressed) waiting.push(apply);
  else apply();
}
