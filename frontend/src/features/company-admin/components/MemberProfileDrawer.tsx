import { Descriptions, Drawer, Flex, Typography } from 'antd';
import dayjs from 'dayjs';
import type { MemberView } from '../../../api/contracts';
import { AvatarImage } from '../../../components/AvatarImage';
import { RoleBadge } from '../../../components/RoleBadge';

/** View Profile: what the company knows of a member. */
export function MemberProfileDrawer({ member, onClose }: { member: MemberView | null; onClose: () => void }) {
  return (
    <Drawer open={!!member} onClose={onClose} title={member ? member.name : 'Profile'} size={360}>
      {member && (
        <Flex vertical gap="middle" align="center">
          <AvatarImage src={member.avatar} name={member.name} size={96} />
          <Typography.Title level={4} style={{ margin: 0 }}>
            {member.name}
          </Typography.Title>
          <Descriptions
            column={1}
            bordered
            size="small"
            style={{ width: '100%' }}
            items={[
              { key: 'email', label: 'Email', children: member.email },
              { key: 'role', label: 'Role', children: <RoleBadge role={member.role} /> },
              { key: 'joined', label: 'Joined', children: dayjs(member.joinedAt).format('MMM D, YYYY') },
            ]}
          />
        </Flex>
      )}
    </Drawer>
  );
}
