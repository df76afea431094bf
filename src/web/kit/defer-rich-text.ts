import { createContext } from 'react';

/**
 * Inside this context (true), a rich text field shows its sanitised HTML, looking as the editor will, and mounts
 * tiptap only when a person clicks, tabs or focuses into it: a page of fifty rich texts opens without fifty
 * editors. Outside it (the asset library, dialogs) the editor mounts at once.
 */
export const DeferRichText = createContext(false);
