/**
 * The one registry of widget and asset types: the server validates content with it and the admin app builds
 * its editor forms and asset library from it. Adding a type means adding one entry here (and an icon in
 * src/web/registry).
 */
export * from './asset-types.js';
export * from './fields.js';
export * from './widget-types.js';
export * from './widget-content.js';
export * from './unique-copy.js';
