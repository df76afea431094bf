import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { isApiError } from '../../../../shared/api/client';
import type { Template } from '../../../../shared/api/templates';
import { toast } from '../../../components/ui/toast';
import type { FieldsFormController } from '../../../kit/fields-form';
import { useApi } from '../../../lib/api';
import { errorMessage, errorTitle } from '../../../lib/errors';
import { setServerErrors } from '../../../lib/form-errors';
import { usePutTemplate } from '../api/templates';
import { bodyOf, SERVER_FIELDS, valuesOf, type Values } from './template-values';
import { showWidgetErrors, widgetsValid } from './template-widget-checks';

/**
 * Saving a template: the fixed regions' widget forms are checked first; a new template's name is looked up (a
 * PUT on a taken name would change that template); the server's field errors go on the fields they name.
 * `save` answers the saved template, or null when nothing was saved (the form says why).
 */
export function useSaveTemplate({
  form,
  template,
  etag,
  controllers,
}: {
  form: UseFormReturn<Values>;
  template: Template | undefined;
  etag: string | undefined;
  controllers: Map<string, FieldsFormController>;
}) {
  const client = useApi();
  const put = usePutTemplate();
  const isNew = template === undefined;
  const [checkingName, setCheckingName] = useState(false);

  const nameTaken = (name: string) =>
    form.setError(
      'name',
      { type: 'server', message: `A template named “${name}” exists already.` },
      { shouldFocus: true },
    );

  const save = async (values: Values): Promise<Template | null> => {
    if (!(await widgetsValid(values, controllers))) return null;
    const name = isNew ? values.name : template.name;
    if (isNew) {
      setCheckingName(true);
      try {
        await client.templates.get(name);
        nameTaken(name);
        return null;
      } catch (error) {
        if (!isApiError(error, 404)) {
          put.reset();
          toast.error(errorTitle(error), errorMessage(error));
          return null;
        }
      } finally {
        setCheckingName(false);
      }
    }
    try {
      const { data } = await put.mutateAsync({
        name,
        body: bodyOf(values),
        etag: isNew ? undefined : etag,
        create: isNew,
      });
      // What was saved is the form's new starting point: nothing is left unsaved.
      form.reset(valuesOf(data));
      toast.success(isNew ? `Created template “${data.label}”` : `Saved template “${data.label}”`);
      return data;
    } catch (error) {
      // Created by someone else since the check above: the create-only PUT changed nothing.
      if (isNew && isApiError(error, 412)) nameTaken(name);
      else {
        setServerErrors(form.setError, error, SERVER_FIELDS);
        showWidgetErrors(error, values, controllers);
      }
      return null;
    }
  };

  return { save, error: put.error, reset: put.reset, isSaving: put.isPending || checkingName };
}
