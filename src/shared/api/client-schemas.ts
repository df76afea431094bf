/**
 * The response schemas the client checks answers against, in one module that the client imports on first use
 * (`import()`): the SPA's first screen then carries neither zod nor the contract's schemas, and every answer is
 * still checked. Node (tests, scripts) loads it on the first call like any module.
 */
import { z } from 'zod';
import { Me, User } from './auth.js';
import { DeletedMessage, Message } from './common.js';
import { FindResult, Folder, FolderChildren, FolderContents, TreeItem } from './folders.js';
import { AssetBulkResult, AssetList, AssetMetadata, AssetUsage } from './assets.js';
import { ChangeEvent } from './events.js';
import { LeaseState } from './leases.js';
import { Page, PagePutResponse } from './pages.js';
import { RevisionList } from './revisions.js';
import { SearchResults } from './search.js';
import { SiteList } from './sites.js';
import { Template, TemplateList, TemplateUsage } from './templates.js';
import { TransitionsResponse } from './workflow.js';
import { TrashedMessage, TrashList, TrashRestored } from './trash.js';

export const responseSchemas = {
  Me,
  User,
  UserList: z.array(User),
  DeletedMessage,
  Message,
  SiteList,
  Folder,
  FolderChildren,
  FolderContents,
  TreeItem,
  FindResult,
  Template,
  TemplateList,
  TemplateUsage,
  Page,
  PagePutResponse,
  TransitionsResponse,
  AssetMetadata,
  AssetList,
  AssetUsage,
  AssetBulkResult,
  LeaseState,
  ChangeEvent,
  SearchResults,
  RevisionList,
  TrashedMessage,
  TrashList,
  TrashRestored,
};

export type ResponseSchemas = typeof responseSchemas;
