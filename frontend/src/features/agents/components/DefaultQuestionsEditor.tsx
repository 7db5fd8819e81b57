import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Input, Table } from 'antd';
import { useState } from 'react';
import { MAX_DEFAULT_QUESTIONS, useAddDefaultQuestion } from '../hooks/useAddDefaultQuestion';

interface DefaultQuestionsEditorProps {
  /** Form.Item passes these in. */
  value?: string[];
  onChange?: (questions: string[]) => void;
  id?: string;
}

/** The default-questions table: at most four, blank ones ignored, the add field hidden at four. */
export function DefaultQuestionsEditor({ value = [], onChange, id }: DefaultQuestionsEditorProps) {
  const [draft, setDraft] = useState('');
  const addQuestion = useAddDefaultQuestion();

  const add = () => {
    const next = addQuestion(value, draft);
    if (!next) return;
    onChange?.(next);
    setDraft('');
  };

  return (
    <Flex vertical gap="small" id={id}>
      <Table<{ key: number; question: string }>
        size="small"
        pagination={false}
        dataSource={value.map((question, index) => ({ key: index, question }))}
        locale={{ emptyText: 'No default questions' }}
        columns={[
          { title: 'Question', dataIndex: 'question' },
          {
            title: <span className="sb-visually-hidden">Actions</span>,
            key: 'actions',
            width: 48,
            render: (_, row) => (
              <Button
                type="text"
                danger
                size="small"
                icon={<DeleteOutlined />}
                aria-label={`Delete question ${row.key + 1}`}
                onClick={() => onChange?.(value.filter((_q, index) => index !== row.key))}
              />
            ),
          },
        ]}
      />
      {value.length < MAX_DEFAULT_QUESTIONS && (
        <Flex gap="small">
          <Input
            aria-label="New question"
            placeholder="Add a default question"
            value={draft}
            maxLength={300}
            onChange={(event) => setDraft(event.target.value)}
            onPressEnter={(event) => {
              event.preventDefault();
              add();
            }}
          />
          <Button icon={<PlusOutlined />} onClick={add}>
            Add Question
          </Button>
        </Flex>
      )}
    </Flex>
  );
}
