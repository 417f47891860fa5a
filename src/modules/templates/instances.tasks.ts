// Job: render a template instance into its medium's artefact (instances.render.ts; decisions §18). Retried once.
import { Type } from '@sinclair/typebox';
import { defineTask } from '../../jobs/task.js';

export const renderInstanceTask = defineTask({
  name: 'templates.render-instance',
  payload: Type.Object({
    instance: Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' }),
  }),
  retryLimit: 1,
  retryDelaySeconds: 5,
  retryBackoff: false,
  expireInSeconds: 300,
});
