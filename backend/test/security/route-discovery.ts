import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { GATEWAY_METADATA, MESSAGE_MAPPING_METADATA, MESSAGE_METADATA } from '@nestjs/websockets/constants';

/** `METHOD /path` as Express matches it, e.g. `PATCH /api/agents/:id`. */
export type RouteKey = string;

interface ExpressLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
}

/**
 * Every HTTP route the running app answers, read from the Express router Nest registered them on, so
 * routes added outside controllers (Swagger's) are found too. Middleware layers are not routes.
 */
export function discoverHttpRoutes(app: INestApplication): RouteKey[] {
  const express = app.getHttpAdapter().getInstance() as { router?: { stack: ExpressLayer[] } };
  const stack = express.router?.stack;
  if (!stack) throw new Error('no Express router stack: has the HTTP adapter changed?');
  const keys = new Set<RouteKey>();
  for (const layer of stack) {
    if (!layer.route) continue;
    const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
    for (const method of Object.keys(layer.route.methods)) {
      for (const path of paths) keys.add(`${method === '_all' ? 'ALL' : method.toUpperCase()} ${path}`);
    }
  }
  return [...keys].sort();
}

/** Every client → server socket event (`@SubscribeMessage`) of every gateway, as `Gateway: event`. */
export function discoverSocketEvents(app: INestApplication): string[] {
  const modules = app.get(ModulesContainer, { strict: false });
  const events = new Set<string>();
  for (const module of modules.values()) {
    for (const wrapper of module.providers.values()) {
      const type = wrapper.metatype as (new (...args: never[]) => object) | null | undefined;
      if (typeof type !== 'function' || !Reflect.getMetadata(GATEWAY_METADATA, type)) continue;
      const proto = type.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = proto[name];
        if (typeof handler !== 'function' || !Reflect.getMetadata(MESSAGE_MAPPING_METADATA, handler))
          continue;
        events.add(`${type.name}: ${String(Reflect.getMetadata(MESSAGE_METADATA, handler))}`);
      }
    }
  }
  return [...events].sort();
}

/** Discovered routes or events that the table says nothing about: each is a test failure. */
export function missingEntries(
  discovered: readonly string[],
  table: Readonly<Record<string, unknown>>,
): string[] {
  return discovered.filter((key) => !(key in table));
}

/** Table entries for routes or events that no longer exist: the table must describe the real app. */
export function staleEntries(
  discovered: readonly string[],
  table: Readonly<Record<string, unknown>>,
): string[] {
  const known = new Set(discovered);
  return Object.keys(table).filter((key) => !known.has(key));
}
