import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './error-boundary.js';

describe('ErrorBoundary', () => {
  it('shows its fallback, reports the error, and renders the page again on retry', async () => {
    let broken = true;
    function Section() {
      if (broken) throw new Error('render failed');
      return <p>Contact</p>;
    }
    const onError = vi.fn();
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <ErrorBoundary
        onError={onError}
        fallback={(retry) => (
          <div role="alert">
            Something went wrong on this page
            <button type="button" onClick={retry}>
              Try again
            </button>
          </div>
        )}
      >
        <Section />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Something went wrong on this page');
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
