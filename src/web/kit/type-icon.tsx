import type { ComponentType, SVGProps } from 'react';
import {
  ArchiveIcon,
  CalendarIcon,
  CodeIcon,
  CommentIcon,
  EventIcon,
  FileIcon,
  FilmIcon,
  FormIcon,
  HeadingIcon,
  ImageIcon,
  ImagesIcon,
  KeyIcon,
  LayersIcon,
  ListIcon,
  ListTreeIcon,
  LockIcon,
  MenuIcon,
  NewspaperIcon,
  PollIcon,
  RssIcon,
  TagIcon,
  TextIcon,
  UserPlusIcon,
} from '../components/ui/icons';
import type { AssetType, WidgetType } from '../../shared/registry';

type IconComponent = ComponentType<SVGProps<SVGSVGElement>>;

/** The icon of each widget type (the registry holds everything else about a type; the app adds its picture). */
const WIDGET_ICONS: Record<WidgetType, IconComponent> = {
  cmsRichText: TextIcon,
  cmsSimpleText: TextIcon,
  cmsRawHtml: CodeIcon,
  cmsTitle: HeadingIcon,
  cmsEvent: EventIcon,
  cmsBlogPost: NewspaperIcon,
  cmsImage: ImageIcon,
  cmsFile: FileIcon,
  cmsFlash: FilmIcon,
  cmsNavon: MenuIcon,
  cmsNavTree: ListTreeIcon,
  cmsNavImage: ImagesIcon,
  cmsPageAutoList: ListIcon,
  cmsBlogIndex: NewspaperIcon,
  cmsFileAutoList: ListIcon,
  cmsImageAutoList: ImagesIcon,
  cmsArchiveList: ArchiveIcon,
  cmsTagList: TagIcon,
  cmsCategoryList: LayersIcon,
  cmsCalendar: CalendarIcon,
  cmsForm: FormIcon,
  cmsCommentsForm: CommentIcon,
  cmsPoll: PollIcon,
  cmsLogin: KeyIcon,
  cmsSecureLogin: LockIcon,
  cmsRegistration: UserPlusIcon,
  cmsRss: RssIcon,
};

/** The icon of each asset type. */
const ASSET_ICONS: Record<AssetType, IconComponent> = {
  cmsImageAsset: ImageIcon,
  cmsFileAsset: FileIcon,
  cmsFlashAsset: FilmIcon,
  cmsSimpleTextAsset: TextIcon,
  cmsRichTextAsset: TextIcon,
  cmsRawHtmlAsset: CodeIcon,
  cmsArchiveList: ArchiveIcon,
  cmsSimpleAutoList: ListIcon,
  cmsBlogPostAsset: NewspaperIcon,
  cmsCalendarAsset: CalendarIcon,
  cmsCategoryList: LayersIcon,
  cmsTagList: TagIcon,
  cmsCommentsFormAsset: CommentIcon,
  cmsFormAsset: FormIcon,
  cmsEventAsset: EventIcon,
  cmsFileAutoList: ListIcon,
  cmsImageAutoList: ImagesIcon,
  cmsPageAutoList: ListIcon,
  cmsLoginAsset: KeyIcon,
  cmsPollAsset: PollIcon,
  cmsRssAsset: RssIcon,
  cmsRegistrationAsset: UserPlusIcon,
  cmsSecureLogin: LockIcon,
};

/** The icon of a widget type (decorative: the type's label is always shown or named beside it). */
export function WidgetTypeIcon({ type, className }: { type: string; className?: string }) {
  const Icon = WIDGET_ICONS[type as WidgetType] ?? LayersIcon;
  return <Icon className={className} />;
}

/** The icon of an asset type (decorative). */
export function AssetTypeIcon({ type, className }: { type: string; className?: string }) {
  const Icon = ASSET_ICONS[type as AssetType] ?? FileIcon;
  return <Icon className={className} />;
}
