import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { useEffect, type ReactNode } from 'react';
import { createQueryClient } from '../app/query-client';
import { ApiProvider, type WebApi } from '../lib/api';
import type { FieldDef } from '../../shared/registry';
import { FieldsForm, useFieldsForm, type FieldsFormController, type FieldValues } from '../kit/fields-form';
import { KitServicesContextProvider, type KitServices } from '../kit/kit-services';

/** Kit services that answer what a test says (the asset picker's answer, a chosen path). */
export function fakeKitServices(
  answers: Partial<{ asset: Awaited<ReturnType<KitServices['pickAsset']>>; folder: string; sitePath: string }> = {},
): KitServices {
  return {
    pickAsset: async () => answers.asset ?? null,
    pickAssetFolder: async () => answers.folder ?? null,
    pickSitePath: async () => answers.sitePath ?? null,
  };
}

function Harness(props: {
  defs: readonly FieldDef[];
  initial: FieldValues;
  creating?: boolean;
  isReadOnly?: boolean;
  onController: (c: FieldsFormController) => void;
  onValuesChange?: (changes: FieldValues) => void;
}) {
  const controller = useFieldsForm(props);
  useEffect(() => {
    props.onController(controller);
  });
  return <FieldsForm controller={controller} isReadOnly={props.isReadOnly} onValuesChange={props.onValuesChange} />;
}

/** Everything the kit's forms need around them: the API, the query cache and the kit's services. */
export function KitProviders({
  api,
  services,
  children,
}: {
  api: WebApi;
  services?: KitServices;
  children: ReactNode;
}) {
  return (
    <ApiProvider api={api}>
      <QueryClientProvider client={createQueryClient({ retry: false })}>
        <KitServicesContextProvider services={services ?? fakeKitServices()}>{children}</KitServicesContextProvider>
      </QueryClientProvider>
    </ApiProvider>
  );
}

/** Renders a kit form of `defs` and answers its controller (read it after rendering). */
export function renderKitForm(
  api: WebApi,
  defs: readonly FieldDef[],
  initial: FieldValues,
  {
    creating = false,
    isReadOnly,
    services,
    onValuesChange,
  }: {
    creating?: boolean;
    isReadOnly?: boolean;
    services?: KitServices;
    onValuesChange?: (changes: FieldValues) => void;
  } = {},
) {
  let controller!: FieldsFormController;
  const view = render(
    <KitProviders api={api} services={services}>
      <Harness
        defs={defs}
        initial={initial}
        creating={creating}
        isReadOnly={isReadOnly}
        onController={(c) => (controller = c)}
        onValuesChange={onValuesChange}
      />
    </KitProviders>,
  );
  return { ...view, controller: () => controller };
}
