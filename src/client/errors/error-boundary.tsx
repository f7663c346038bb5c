import { Component, type ErrorInfo, type ReactNode } from 'react';

export interface ErrorBoundaryProps {
  children: ReactNode;
  onError: (error: unknown, componentStack: string | null) => void;
}

/** A render error shows a message the shopper can recover from (nothing typed is lost) and is reported. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onError(error, info.componentStack ?? null);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="page-error" role="alert">
        <h2>Something went wrong on this page</h2>
        <p>
          Your details are kept and nothing was charged. Try again; if it keeps happening, reload the page.
        </p>
        <button
          type="button"
          className="button button--primary"
          onClick={() => this.setState({ failed: false })}
        >
          Try again
        </button>
      </div>
    );
  }
}
