import { describe, expect, it, vi } from 'vitest';
import { afterPointerRelease } from './after-pointer-release.js';

describe('afterPointerRelease', () => {
  it('runs at once when nothing is pressed (the focus left by keyboard)', () => {
    const apply = vi.fn();
    afterPointerRelease(apply);
    expect(apply).toHaveBeenCalledTimes(1);
  });

  it('waits for the release and the click it makes when a button is pressed', async () => {
    const button = document.createElement('button');
    document.body.append(button);
    const order: string[] = [];
    button.addEventListener('click', () => order.push('click'));

    button.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    afterPointerRelease(() => order.push('message'));
    expect(order).toEqual([]);
    button.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }));
    button.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await vi.waitFor(() => expect(order).toEqual(['click', 'message']));

    // Released: the next change is immediate again.
    afterPointerRelease(() => order.push('later'));
    expect(order).toEqual(['click', 'message', 'later']);
    button.remove();
  });

  it('lets go when the window loses focus with the button still down', async () => {
    const apply = vi.fn();
    document.body.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    afterPointerRelease(apply);
    window.dispatchEvent(new Event('blur'));
    await vi.waitFor(() => expect(apply).toHaveBeenCalledTimes(1));
  });
});
