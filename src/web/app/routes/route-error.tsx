import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button } from '../../components/ui/button';
import { ErrorState } from '../../components/ui/status';

/** Last resort for a screen that crashed while rendering: say so and offer a reload (state is on the server). */
export function RouteError() {
  const error = useRouteError();
  const shown = isRouteErrorResponse(error) ? new Error(`${error.status} ${error.statusText}`) : error;
  return (
    <div className="full-page">
      <div>
        <ErrorState title="This screen failed" error={shown} />
        <p className="full-page__action">
          <Button variant="primary" onPress={() => window.location.reload()}>
            Reload Folio
          </Button>
        </p>
      </div>
    </div>
  );
}
