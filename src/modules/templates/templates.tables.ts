// Kysely types of templates, template instances, files and print campaigns (migration 2026-11-24T0100-print-templates).
import type { Generated } from 'kysely';
import type { LaterTimestamp, Timestamp } from '../../db/types.js';

export interface TemplatesTable {
  id: Generated<string>;
  brand: string | null;
  library_key: string | null;
  name: string;
  medium: string;
  template_type: string;
  inputs: string[];
  variables: string[];
  html: string;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: LaterTimestamp;
}

export interface FilesTable {
  id: Generated<string>;
  brand: string | null;
  path: string;
  name: string;
  mime: string;
  size: string | number;
  public: Generated<boolean>;
  preview_path: string | null;
  preview_mime: string | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: LaterTimestamp;
}

export interface TemplateInstancesTable {
  id: Generated<string>;
  template: string;
  brand: string;
  medium: string;
  html: string;
  file: string | null;
  listings: string[];
  contacts: string[];
  deals: string[];
  unknown_variables: string[];
  render_status: string;
  render_note: string | null;
  created_by: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: LaterTimestamp;
}

export interface PrintCampaignsTable {
  id: Generated<string>;
  brand: string;
  created_by: string;
  template_instance: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: LaterTimestamp;
}

export interface PrintTables {
  templates: TemplatesTable;
  files: FilesTable;
  template_instances: TemplateInstancesTable;
  print_campaigns: PrintCampaignsTable;
}
