import type { Template, TemplateRegion, TemplateSummary } from '../../../shared/api/templates.js';
import type { TemplateRow } from './templates.repository.js';

/** The regions stored with a template (JSON text) in template order. */
export function templateRegionsOf(row: Pick<TemplateRow, 'regions'>): TemplateRegion[] {
  return JSON.parse(row.regions) as TemplateRegion[];
}

/** Row → the template resource. */
export function presentTemplate(row: TemplateRow): Template {
  return { name: row.name, label: row.label, description: row.description, regions: templateRegionsOf(row) };
}

/** Row → an entry of the template list. */
export function presentTemplateSummary(row: TemplateRow): TemplateSummary {
  return {
    name: row.name,
    label: row.label,
    description: row.description,
    regions: templateRegionsOf(row).map((r) => ({ name: r.name, editable: r.editable })),
  };
}
