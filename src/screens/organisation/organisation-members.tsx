import { zodResolver } from '@hookform/resolvers/zod';
import { Badge, Button, Group, Modal, Paper, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useConfirm } from '@/components/confirm/use-confirm';
import { HANDLE_PATTERN } from '@/config/handle';
import { ORGANISATION_TEXTS } from '@/config/organisation-texts';
import type { CustomerMember } from '@/machines/organisation/organisation.machine';
import {
  selectAddError,
  selectBalance,
  selectIsOwner,
  selectMembers,
  selectOrganisationBusy,
  selectRemovingId,
  selectTransferAttempt,
  selectTransferError,
} from '@/machines/organisation/organisation.selectors';
import { OrganisationActorContext } from '@/screens/organisation/organisation-context';

const TEXTS = ORGANISATION_TEXTS;

/** How a member is named on the page: their @handle, else their e-mail, else their key. */
export const memberName = (member: CustomerMember): string =>
  member.preferred_username ? `@${member.preferred_username}` : (member.email ?? member.key);

/** The member key (b2b_members_…), small and monospace; QA looks for it. */
export function MemberKey({ value }: { value: string }) {
  return (
    <Tooltip label={TEXTS.members.keyTooltip} withArrow>
      <Badge
        component="code"
        variant="outline"
        color="gray"
        radius="sm"
        tabIndex={0}
        aria-label={`${TEXTS.members.keyTooltip}: ${value}`}
        styles={{ label: { fontFamily: 'var(--mantine-font-family-monospace)', textTransform: 'none', fontWeight: 400 } }}
      >
        {value}
      </Badge>
    </Tooltip>
  );
}

const isEmail = (value: string): boolean => z.email().safeParse(value).success;
const addSchema = z.object({
  member: z
    .string()
    .trim()
    .min(1, TEXTS.addMember.required)
    .refine((value) => value === '' || isEmail(value) || HANDLE_PATTERN.test(value.replace(/^@/, '')), TEXTS.addMember.invalid),
});
type AddValues = z.infer<typeof addSchema>;

/** The owner adds a person by e-mail or @handle; the field empties once they are in. */
export function AddMemberForm() {
  const organisation = OrganisationActorContext.useActorRef();
  const busy = OrganisationActorContext.useSelector(selectOrganisationBusy);
  const addError = OrganisationActorContext.useSelector(selectAddError);
  const { register, handleSubmit, formState, reset } = useForm<AddValues>({ resolver: zodResolver(addSchema), defaultValues: { member: '' } });

  useEffect(() => {
    const subscription = organisation.on('organisation.memberAdded', () => reset({ member: '' }));
    return () => subscription.unsubscribe();
  }, [organisation, reset]);

  const submit = handleSubmit((values) => organisation.send({ type: 'organisation.addMember', member: values.member }));
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      component="form"
      noValidate
      aria-labelledby="add-member-heading"
      onSubmit={(event) => {
        event.preventDefault();
        if (busy === null) void submit(event);
      }}
    >
      <Stack gap="sm">
        <Title order={3} size="h4" id="add-member-heading">
          {TEXTS.addMember.heading}
        </Title>
        <TextInput
          label={TEXTS.addMember.label}
          description={TEXTS.addMember.description}
          autoComplete="off"
          error={formState.errors.member?.message ?? addError ?? undefined}
          {...register('member')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={busy === 'adding'} disabled={busy !== null && busy !== 'adding'}>
            {TEXTS.addMember.submit}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

const transferSchema = (balance: number) =>
  z.object({
    credits: z
      .string()
      .trim()
      .refine((value) => /^\d+$/.test(value), TEXTS.transfer.whole)
      .refine((value) => Number(value) >= 1, TEXTS.transfer.tooFew)
      .refine((value) => Number(value) <= balance, TEXTS.transfer.tooMany(balance)),
  });
type TransferValues = { credits: string };

/** Credits for one member: 1 to the organisation's balance; a failed transfer can be retried as it was. */
function TransferModal({ member, onClose }: { member: CustomerMember; onClose: () => void }) {
  const organisation = OrganisationActorContext.useActorRef();
  const balance = OrganisationActorContext.useSelector(selectBalance) ?? 0;
  const busy = OrganisationActorContext.useSelector(selectOrganisationBusy);
  const attempt = OrganisationActorContext.useSelector(selectTransferAttempt);
  const error = OrganisationActorContext.useSelector(selectTransferError);
  const { register, handleSubmit, formState } = useForm<TransferValues>({
    resolver: zodResolver(transferSchema(balance)),
    defaultValues: { credits: '' },
  });
  const name = memberName(member);
  const failedHere = error !== null && attempt?.memberId === member.id;
  const submit = handleSubmit((values) => organisation.send({ type: 'organisation.transfer', memberId: member.id, credits: Number(values.credits) }));

  return (
    <Modal opened onClose={onClose} title={TEXTS.transfer.heading(name)} centered>
      <form
        noValidate
        aria-label={TEXTS.transfer.heading(name)}
        onSubmit={(event) => {
          event.preventDefault();
          if (busy === null) void submit(event);
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={TEXTS.transfer.credits}
            description={TEXTS.transfer.hint(balance)}
            inputMode="numeric"
            autoComplete="off"
            data-autofocus
            error={formState.errors.credits?.message}
            {...register('credits')}
          />
          {failedHere && (
            <Stack gap={4}>
              <Text size="sm" c="red" role="alert">
                {error}
              </Text>
              <Group>
                <Button variant="default" size="xs" onClick={() => organisation.send({ type: 'organisation.transferRetry' })}>
                  {TEXTS.transfer.retry}
                </Button>
              </Group>
            </Stack>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy === 'transferring'}>
              {TEXTS.transfer.cancel}
            </Button>
            <Button type="submit" loading={busy === 'transferring'}>
              {TEXTS.transfer.submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The members table; the owner also sees e-mails, credits received, and can transfer or remove. */
export function MembersSection() {
  const organisation = OrganisationActorContext.useActorRef();
  const members = OrganisationActorContext.useSelector(selectMembers);
  const owner = OrganisationActorContext.useSelector(selectIsOwner);
  const balance = OrganisationActorContext.useSelector(selectBalance) ?? 0;
  const busy = OrganisationActorContext.useSelector(selectOrganisationBusy);
  const removingId = OrganisationActorContext.useSelector(selectRemovingId);
  const confirm = useConfirm();
  const [transferTo, setTransferTo] = useState<CustomerMember | null>(null);

  useEffect(() => {
    const subscription = organisation.on('organisation.transferred', () => setTransferTo(null));
    return () => subscription.unsubscribe();
  }, [organisation]);

  const closeTransfer = () => {
    organisation.send({ type: 'organisation.transferCancel' });
    setTransferTo(null);
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="members-heading">
      <Title order={2} size="h3" id="members-heading">
        {TEXTS.members.heading}
      </Title>
      {members.length === 0 ? (
        <Text c="dimmed">{owner ? TEXTS.members.emptyOwner : TEXTS.members.empty}</Text>
      ) : (
        <Table.ScrollContainer minWidth={owner ? 720 : 360}>
          <Table aria-label={TEXTS.members.tableLabel} verticalSpacing="xs" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{TEXTS.members.handle}</Table.Th>
                {owner && <Table.Th scope="col">{TEXTS.members.email}</Table.Th>}
                <Table.Th scope="col">{TEXTS.members.key}</Table.Th>
                {owner && <Table.Th scope="col">{TEXTS.members.received}</Table.Th>}
                {owner && <Table.Th scope="col">{TEXTS.members.actions}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.map((member) => (
                <Table.Tr key={member.id}>
                  <Table.Td>{member.preferred_username ? `@${member.preferred_username}` : <Text span c="dimmed" size="sm">{TEXTS.members.noHandle}</Text>}</Table.Td>
                  {owner && <Table.Td>{member.email ?? ''}</Table.Td>}
                  <Table.Td>
                    <MemberKey value={member.key} />
                  </Table.Td>
                  {owner && <Table.Td>{member.credits_received}</Table.Td>}
                  {owner && (
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="compact-sm"
                          variant="light"
                          disabled={busy !== null || balance < 1}
                          title={balance < 1 ? TEXTS.transfer.noBalance : undefined}
                          onClick={() => setTransferTo(member)}
                        >
                          {TEXTS.transfer.open(memberName(member))}
                        </Button>
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          color="red"
                          loading={removingId === member.id}
                          disabled={busy !== null && removingId !== member.id}
                          onClick={() =>
                            confirm({
                              title: TEXTS.members.removeTitle,
                              text: TEXTS.members.removeText(memberName(member)),
                              cancel: TEXTS.members.removeCancel,
                              confirm: TEXTS.members.removeConfirm,
                              onConfirm: () => organisation.send({ type: 'organisation.removeMember', memberId: member.id }),
                            })
                          }
                        >
                          {TEXTS.members.remove(memberName(member))}
                        </Button>
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {owner && balance < 1 && members.length > 0 && (
        <Text size="sm" c="dimmed">
          {TEXTS.transfer.noBalance}
        </Text>
      )}
      {transferTo && <TransferModal key={transferTo.id} member={transferTo} onClose={closeTransfer} />}
    </Stack>
  );
}
