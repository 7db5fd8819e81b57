import { act, render, screen } from '@testing-library/react';
import { Suspense, type ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { preloadablePage } from './pageLoaders';
import { startPage } from './startPage';

describe('startPage (the screen whose code loads before the session check)', () => {
  it('is the chat for a signed-in browser opening / or /chat', () => {
    expect(startPage('/chat', '', true)).toBe('chat');
    expect(startPage('/', '', true)).toBe('chat');
  });

  it('is nothing when a signed-in browser is sent elsewhere or opens another page', () => {
    expect(startPage('/', '?redirect=%2Fadmin', true)).toBeNull();
    expect(startPage('/company/admin/users', '', true)).toBeNull();
  });

  it('is the sign-in form for a signed-out visitor on / or /chat, and nothing on other pages', () => {
    expect(startPage('/', '', false)).toBe('sign-in');
    expect(startPage('/chat', '', false)).toBe('sign-in');
    expect(startPage('/', '?redirect=%2Fadmin', false)).toBe('sign-in');
    expect(startPage('/register', '', false)).toBeNull();
  });
});

describe('preloadablePage', () => {
  const page = () => {
    let resolve: (module: { Hello: () => ReactElement }) => void = () => undefined;
    const importer = vi.fn(
      () =>
        new Promise<{ Hello: () => ReactElement }>((r) => {
          resolve = r;
        }),
    );
    const preloadable = preloadablePage(importer, (m) => m.Hello);
    const Hello = () => <p>hello page</p>;
    return { preloadable, importer, finish: () => resolve({ Hello }) };
  };
  const renderPage = (Page: () => ReactElement | null) =>
    render(
      <Suspense fallback={<p>loading</p>}>
        <Page />
      </Suspense>,
    );

  it('renders at once, without suspending, when its code has loaded before', async () => {
    const { preloadable, importer, finish } = page();
    const loading = preloadable.load();
    finish();
    await act(() => loading);

    renderPage(preloadable.Page as () => ReactElement);
    expect(screen.getByText('hello page')).toBeInTheDocument();
    expect(screen.queryByText('loading')).not.toBeInTheDocument();
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('suspends until its code arrives otherwise, loading it once', async () => {
    const { preloadable, importer, finish } = page();
    renderPage(preloadable.Page as () => ReactElement);
    expect(screen.getByText('loading')).toBeInTheDocument();
    void preloadable.load();
    await act(async () => finish());
    expect(await screen.findByText('hello page')).toBeInTheDocument();
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('tries a failed load again on the next call', async () => {
    const importer = vi
      .fn<() => Promise<{ Hello: () => ReactElement }>>()
      .mockRejectedValueOnce(new Error('chunk failed'))
      .mockResolvedValueOnce({ Hello: () => <p>hello</p> });
    const preloadable = preloadablePage(importer, (m) => m.Hello);
    await expect(preloadable.load()).rejects.toThrow('chunk failed');
    await expect(preloadable.load()).resolves.toBeTypeOf('function');
    expect(importer).toHaveBeenCalledTimes(2);
  });
});
