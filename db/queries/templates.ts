import type { Template, TemplateSchema } from '../../core/templates';
import type { Db } from '../knex';

export interface TemplateRow extends Template {
  created_at: Date;
}

/** Templates are a shared catalogue (not tenant data), so they are the one table read without an operator. */
export async function listTemplates(db: Db): Promise<TemplateRow[]> {
  return db('templates').orderBy('id').select('id', 'name', 'version', 'schema', 'created_at');
}

export async function findTemplate(db: Db, id: string): Promise<TemplateRow | undefined> {
  return db('templates').where({ id }).first('id', 'name', 'version', 'schema', 'created_at');
}

export type { TemplateSchema };
