// What runs the template jobs (instances.tasks.ts).
import { handleTask } from '../../jobs/handler.js';
import { renderInstance } from './instances.render.js';
import { renderInstanceTask } from './instances.tasks.js';

export const TEMPLATES_HANDLERS = [
  handleTask(renderInstanceTask, (deps, payload) => renderInstance(deps, payload.instance)),
];
