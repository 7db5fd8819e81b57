import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { AgentMarkdown } from './AgentMarkdown';

describe('agent replies as Markdown', () => {
  it('renders Markdown and opens links in a new tab without access to this page', async () => {
    renderWithProviders(
      <AgentMarkdown content={'**Bold** and [docs](https://example.com/docs)\n\n```\ncode()\n```'} />,
    );
    const link = await screen.findByRole('link', { name: 'docs' });
    expect(link).toHaveAttribute('href', 'https://example.com/docs');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByText('Bold').tagName).toBe('STRONG');
    expect(screen.getByText('code()').closest('pre')).not.toBeNull();
  });

  it('does not render raw HTML from the reply', async () => {
    const { container } = renderWithProviders(
      <AgentMarkdown
        content={'Hi <script>window.hacked = 1</script> <img src=x onerror="alert(1)"> <b>bold</b>'}
      />,
    );
    await screen.findByText(/Hi/);
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
  });

  it('drops javascript: links', async () => {
    renderWithProviders(<AgentMarkdown content={'[click](javascript:alert(1))'} />);
    const link = await screen.findByText('click');
    expect(link.getAttribute('href') ?? '').not.toMatch(/javascript/i);
  });
});
