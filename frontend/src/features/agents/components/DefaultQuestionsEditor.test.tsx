import { act, render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/AppProviders';
import { addDefaultQuestion, useAddDefaultQuestion } from '../hooks/useAddDefaultQuestion';
import { DefaultQuestionsEditor } from './DefaultQuestionsEditor';

const four = ['One', 'Two', 'Three', 'Four'];

function Harness({ initial, onChange }: { initial: string[]; onChange?: (q: string[]) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <AppProviders>
      <DefaultQuestionsEditor
        value={value}
        onChange={(next) => {
          setValue(next);
          onChange?.(next);
        }}
      />
    </AppProviders>
  );
}

describe('default questions editor', () => {
  it('refuses a fifth question with the destructive toast', async () => {
    const wrapper = ({ children }: { children: ReactNode }) => <AppProviders>{children}</AppProviders>;
    const { result } = renderHook(() => useAddDefaultQuestion(), { wrapper });
    let outcome: string[] | null = [];
    act(() => {
      outcome = result.current(four, 'Five');
    });
    expect(outcome).toBeNull();
    expect(await screen.findByText('Maximum questions reached')).toBeInTheDocument();
    expect(screen.getByText('You can only have up to 4 default questions')).toBeInTheDocument();
    expect(addDefaultQuestion(four, 'Five')).toEqual({ refused: 'maximum' });
  });

  it('adds a question, ignores a blank one, and hides the add field at four', async () => {
    const onChange = vi.fn();
    render(<Harness initial={['One', 'Two']} onChange={onChange} />);
    const field = screen.getByRole('textbox', { name: 'New question' });

    await userEvent.type(field, '   {Enter}');
    await userEvent.click(screen.getByRole('button', { name: /Add Question/ }));
    expect(onChange).not.toHaveBeenCalled();

    await userEvent.clear(field);
    await userEvent.type(field, '  Three  {Enter}');
    expect(onChange).toHaveBeenLastCalledWith(['One', 'Two', 'Three']);
    expect(screen.getByText('Three')).toBeInTheDocument();

    await userEvent.type(screen.getByRole('textbox', { name: 'New question' }), 'Four');
    await userEvent.click(screen.getByRole('button', { name: /Add Question/ }));
    expect(onChange).toHaveBeenLastCalledWith(['One', 'Two', 'Three', 'Four']);
    expect(screen.queryByRole('textbox', { name: 'New question' })).toBeNull();
    expect(screen.queryByText('Maximum questions reached')).toBeNull();
  });

  it('deletes a question by its row button, which brings the add field back', async () => {
    render(<Harness initial={four} />);
    expect(screen.queryByRole('textbox', { name: 'New question' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Delete question 2' }));
    expect(screen.queryByText('Two')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'New question' })).toBeInTheDocument();
  });
});
