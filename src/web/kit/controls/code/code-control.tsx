import { useRef, useState } from 'react';
import { FieldShell } from '../../../components/ui/field-shell';
import { HtmlPreview } from '../../../components/ui/html-preview';
import { Tabs } from '../../../components/ui/tabs';
import type { FieldControlProps } from '../../field-control';
import { CodeEditor, type CodeEditorHandle } from './code-editor';

/**
 * `code`: HTML written by hand (raw HTML widget, rendered forms) with highlighting and a preview that renders
 * it sanitised in a sandboxed frame; a query (auto lists) with line numbers. Loaded on first use.
 */
export function CodeControl(props: FieldControlProps) {
  const { def, value, onChange, onBlur, errorMessage, isReadOnly, focusRef } = props;
  const isHtml = def.format === 'html';
  const editor = useRef<CodeEditorHandle>(null);
  const [tab, setTab] = useState<'code' | 'preview'>('code');

  return (
    <FieldShell label={def.label} description={def.help} errorMessage={errorMessage} isRequired={def.required}>
      {({ labelId, describedBy, isInvalid }) => {
        const code = (
          <CodeEditor
            ref={(handle) => {
              editor.current = handle;
              focusRef?.(handle);
            }}
            value={value ?? ''}
            onChange={(next) => onChange(next)}
            onBlur={onBlur}
            language={isHtml ? 'html' : 'sql'}
            labelledBy={labelId}
            describedBy={describedBy}
            isReadOnly={isReadOnly}
            isInvalid={isInvalid}
          />
        );
        if (!isHtml) return code;
        return (
          <Tabs
            label={`${def.label}: code or preview`}
            selected={tab}
            onSelectedChange={setTab}
            keepMounted

            tabs={[
              { id: 'code', label: 'HTML', content: code },
              {
                id: 'preview',
                label: 'Preview',
                tabStop: !value?.trim(),
                content: value?.trim() ? (
                  <HtmlPreview
                    html={value}
                    title={`Preview of ${def.label.toLowerCase()} (sanitised, scripts do not run)`}
                  />
                ) : (
                  <p className="field__description">Nothing to preview yet: the HTML is empty.</p>
                ),
              },
            ]}
          />
        );
      }}
    </FieldShell>
  );
}

export default CodeControl;
