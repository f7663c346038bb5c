import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ProcessingOverlay } from './processing-overlay.js';

describe('ProcessingOverlay', () => {
  it('tells screen readers the order is processing and keeps focus inside', async () => {
    render(
      <>
        <button type="button">Pay</button>
        <ProcessingOverlay />
      </>,
    );
    const overlay = screen.getByRole('dialog', { name: 'Processing your order…' });
    expect(overlay.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(overlay);
    screen.getByText('Processing your order…');
    await userEvent.tab();
    expect(document.activeElement).toBe(overlay);
  });

  it('gives focus back when it closes', () => {
    const view = render(<button type="button">Pay</button>);
    const button = screen.getByRole('button', { name: 'Pay' });
    button.focus();
    view.rerender(
      <>
        <button type="button">Pay</button>
        <ProcessingOverlay />
      </>,
    );
    expect(document.activeElement).not.toBe(button);
    view.rerender(<button type="button">Pay</button>);
    expect(document.activeElement).toBe(button);
  });
});
