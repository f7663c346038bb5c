import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './error-boundary.js';

describe('ErrorBoundary', () => {
  it('shows a message the shopper can recover from, and reports the error', async () => {
    let broken = true;
    function Section() {
      if (broken) throw new Error('render failed');
      return <p>Contact</p>;
    }
    const onError = vi.fn();
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <ErrorBoundary onError={onError}>
        <Section />
      </ErrorBoundary>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Something went wrong on this page');
    expect(alert.textContent).toContain('Your details are kept');
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'render failed' }),
      expect.any(String),
    );
    broken = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    screen.getByText('Contact');
    quiet.mockRestore();
  });
});
