import { Component, type ComponentType, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  children: ReactNode;
}
interface State {
  error: Error | null;
}

/** The error fallback of public-site.md §8, around every island: 'Try Again' resets, 'Refresh Page' reloads. */
export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Island failed', error, info.componentStack);
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="card mx-auto max-w-lg p-8 text-center">
        <h2 className="text-2xl">Something went wrong</h2>
        <p className="mt-3 text-concrete-700">
          We encountered an unexpected error. Please try refreshing the page or contact support if the problem persists
        </p>
        <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
          <button type="button" className="btn-primary" onClick={() => this.setState({ error: null })}>
            Try Again
          </button>
          <button type="button" className="btn-secondary" onClick={() => window.location.reload()}>
            Refresh Page
          </button>
        </div>
      </div>
    );
  }
}

/** Wraps an island's root so any render failure shows the fallback instead of a blank area. */
export function withErrorBoundary<P extends object>(Inner: ComponentType<P>) {
  function Guarded(props: P) {
    return (
      <ErrorBoundary>
        <Inner {...props} />
      </ErrorBoundary>
    );
  }
  Guarded.displayName = `withErrorBoundary(${Inner.displayName ?? Inner.name})`;
  return Guarded;
}
