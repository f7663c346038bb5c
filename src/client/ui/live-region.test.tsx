import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveRegionProvider, useAnnounce } from './live-region.js';

function Speaker({ text }: { text: string }) {
  const announce = useAnnounce();
  return <button onClick={() => announce(text)}>Speak</button>;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('LiveRegionProvider', () => {
  it('says a message in its live region', () => {
    vi.useFakeTimers();
    render(
      <LiveRegionProvider>
        <Speaker text="Shipping is open." />
      </LiveRegionProvider>,
    );
    act(() => screen.getByRole('button').click());
    act(() => {
      vi.advanceTimersByTime(50);
    });
    expect(screen.getByText('Shipping is open.').getAttribute('aria-live')).toBe('polite');
  });

  // Regression: a message announced just before the page went away set state from a timer after the test
  // environment was gone ("window is not defined").
  it('drops a message still waiting when it unmounts', () => {
    vi.useFakeTimers();
    const view = render(
      <LiveRegionProvider>
        <Speaker text="Payment is open." />
      </LiveRegionProvider>,
    );
    act(() => screen.getByRole('button').click());
    view.unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
