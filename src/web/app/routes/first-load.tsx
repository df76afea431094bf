import { LoadingState } from '../../components/ui/status';

/** What a full page load shows until the first screen's code is there. */
export function FirstLoad() {
  return (
    <div className="full-page">
      <LoadingState label="Loading Folio…" />
    </div>
  );
}
