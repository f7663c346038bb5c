import { ApiFailure } from '../admin-api.js';

/** While a screen's data is on its way, or why it could not be read, in the server's words. */
export function QueryState(props: { error: unknown; loading: string }) {
  if (props.error)
    return (
      <p role="alert">
        {props.error instanceof ApiFailure
          ? props.error.message
          : 'This could not be read. Reload to try again.'}
      </p>
    );
  return (
    <p className="loading" role="status">
      {props.loading}
    </p>
  );
}
