import type { ApiError } from '../../../../shared/api/client';
import type { FieldsFormController } from '../../../kit/fields-form';
import { SERVER_FIELDS, widgetFieldsPath, type Values } from './template-values';

const WIDGET_FIELD = /^body\.regions\.(\d+)\.widgets\.(\d+)\.asset\.fields\.[^.]+$/;

/** The fixed regions' widget forms of `values`, in page order. */
function widgetForms(values: Values, controllers: Map<string, FieldsFormController>) {
  return values.regions.flatMap((r, i) =>
    r.editable
      ? []
      : r.widgets.flatMap((w, j) => {
          const controller = controllers.get(w.key);
          return controller ? [{ i, j, controller }] : [];
        }),
  );
}

/** Checks every template widget's fields as the server would; the first one found wrong gets the focus. */
export async function widgetsValid(values: Values, controllers: Map<string, FieldsFormController>) {
  let valid = true;
  for (const { controller } of widgetForms(values, controllers)) {
    if (valid) valid = await controller.validate();
    else await controller.form.trigger();
  }
  return valid;
}

/** Puts a 400's errors about template widgets' fields on those fields (the sent `values` say which widget). */
export function showWidgetErrors(error: unknown, values: Values, controllers: Map<string, FieldsFormController>) {
  const errors = (error as Partial<ApiError>).errors;
  if (!errors) return;
  for (const { i, j, controller } of widgetForms(values, controllers)) {
    const prefix = widgetFieldsPath(i, j);
    const mine = errors.filter((e) => e.path.startsWith(prefix));
    if (mine.length) controller.showServerErrors(mine, prefix);
  }
}

/** Whether every field error of a 400 names a field the editor shows it on. */
export function allErrorsPlaced(error: ApiError): boolean {
  return error.errors.length > 0 && error.errors.every((e) => e.path in SERVER_FIELDS || WIDGET_FIELD.test(e.path));
}
