import { isApiError } from '../../../../shared/api/client';
import type { Template } from '../../../../shared/api/templates';
import { Button } from '../../../components/ui/button';
import { RefreshIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { errorMessage, errorTitle } from '../../../lib/errors';
import { allErrorsPlaced } from './template-widget-checks';
import { TemplateUsageList } from './template-usage';
import type { TemplatesNavigation } from './templates-screen';

/**
 * Why a save failed, where no field says it: regions that pages still fill (with the pages concerned), a newer
 * version saved by someone else (with a way to load it), or any other error.
 */
export function TemplateSaveAlerts({
  error,
  template,
  navigation,
  onReload,
}: {
  error: unknown;
  /** The template as loaded (undefined for a new one). */
  template: Template | undefined;
  navigation: TemplatesNavigation;
  onReload: () => void;
}) {
  if (error === null || error === undefined) return null;
  if (isApiError(error, 409) && error.code === 'TEMPLATE_IN_USE') {
    const regions = ((error.problem as { regions?: { region: string }[] } | undefined)?.regions ?? []).map(
      (r) => r.region,
    );
    return (
      <InlineAlert title="Pages hold content there">
        <p>{error.detail}</p>
        {template && (
          <TemplateUsageList
            name={template.name}
            regions={regions.length ? regions : undefined}
            links={navigation}
            title="Move their content elsewhere, or keep those regions filled by pages."
          />
        )}
      </InlineAlert>
    );
  }
  if (template && isApiError(error, 412)) {
    return (
      <InlineAlert title="Changed by someone else">
        <p>This template changed after you opened it, so nothing was saved. Load their version to go on.</p>
        <Button size="sm" onPress={onReload}>
          <RefreshIcon /> Load the current version
        </Button>
      </InlineAlert>
    );
  }
  if (isApiError(error) && allErrorsPlaced(error)) return null;
  return <InlineAlert title={errorTitle(error)}>{errorMessage(error)}</InlineAlert>;
}
