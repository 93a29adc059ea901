/**
 * Binding resolution against registries of 100 and 10,000 resources (10 and 1,000 projects):
 * a 10-slot tool (contextual, static and parameter slots) resolved in a project of 10 links.
 * Target (DESIGN.md 5): the large registry costs at most 2x the small one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ulid } from 'ulid';
import type { Resource, Tool } from '../shared/model.ts';
import { openBindery, type Bindery } from '../main/services/bindery.ts';
import { insertResource } from '../main/registry/resources.ts';
import { insertProject, saveLink } from '../main/registry/projects.ts';

const ITERATIONS = 2000;

async function seed(bindery: Bindery, resourceCount: number, projectCount: number, location: string): Promise<{ tool: Tool; projectId: string }> {
  const stamp = new Date().toISOString();
  const { db, registry } = bindery;
  registry.addType({ name: 'bench-a', parentTypes: ['fs-directory'], sandboxStrategy: 'copy_on_write' });
  registry.addType({ name: 'bench-b', parentTypes: ['bench-a'], sandboxStrategy: 'copy_on_write' });
  const types = ['git-checkout', 'fs-directory', 'bench-a', 'bench-b'];
  const resources: Resource[] = [];
  db.transaction(() => {
    for (let i = 0; i < resourceCount; i++) {
      const resource: Resource = {
        id: ulid(),
        name: `ns${i % 50}/res-${i}`,
        typeName: types[i % types.length] as string,
        location,
        sandboxStrategy: null,
        description: '',
        createdAt: stamp,
        updatedAt: stamp,
      };
      insertResource(db, resource);
      resources.push(resource);
    }
    for (let p = 0; p < projectCount; p++) {
      const id = ulid();
      insertProject(db, { id, name: `project-${p}`, description: '', createdAt: stamp, updatedAt: stamp });
      for (let k = 0; k < 10; k++) {
        const resource = resources[(p * 10 + k) % resources.length] as Resource;
        saveLink(db, { projectId: id, resourceId: resource.id, alias: `slot${k}`, createdAt: stamp });
      }
    }
  })();
  const slots = Array.from({ length: 10 }, (_, k) => {
    if (k === 8) return `  - name: static${k}\n    resource_type: git-checkout\n    binding: static\n    static_resource: ${resources[resourceCount - 1]?.name}\n`;
    if (k === 9) return `  - name: param${k}\n    resource_type: git-checkout\n    binding: parameter\n`;
    return `  - name: slot${k}\n    resource_type: git-checkout\n`;
  });
  const [tool] = await registry.importTools(`name: bench-tool\nresource_slots:\n${slots.join('')}`, 'bench.yaml');
  return { tool: tool as Tool, projectId: registry.findProject('project-0').id };
}

async function measure(resourceCount: number, projectCount: number): Promise<{ perCallUs: number; rssMb: number }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-bench-'));
  const bindery = openBindery(path.join(root, 'data'));
  try {
    const { tool, projectId } = await seed(bindery, resourceCount, projectCount, root);
    const project = bindery.registry.findProject(projectId);
    const params = { param9: `ns0/res-0` };
    for (let i = 0; i < 200; i++) bindery.bindings.resolve(tool, project, params);
    const samples: number[] = [];
    for (let round = 0; round < 5; round++) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < ITERATIONS / 5; i++) bindery.bindings.resolve(tool, project, params);
      samples.push(Number(process.hrtime.bigint() - start) / 1000 / (ITERATIONS / 5));
    }
    samples.sort((a, b) => a - b);
    return { perCallUs: samples[2] as number, rssMb: process.memoryUsage().rss / 1024 / 1024 };
  } finally {
    bindery.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const small = await measure(100, 10);
const large = await measure(10_000, 1_000);
const ratio = large.perCallUs / small.perCallUs;
console.log('registry                      per resolve (10 slots)   rss');
console.log(`100 resources, 10 projects    ${small.perCallUs.toFixed(1).padStart(8)} µs            ${small.rssMb.toFixed(0)} MB`);
console.log(`10,000 resources, 1,000 proj. ${large.perCallUs.toFixed(1).padStart(8)} µs            ${large.rssMb.toFixed(0)} MB`);
console.log(`ratio large/small: ${ratio.toFixed(2)}x (target <= 2x) ${ratio <= 2 ? 'OK' : 'OVER TARGET'}`);
process.exitCode = ratio <= 2 ? 0 : 1;
