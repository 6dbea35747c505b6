import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Badge, Button, Group, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { CUSTOMER_NAME_MAX } from '@/config/customers';
import { ORGANISATION_TEXTS } from '@/config/organisation-texts';
import { ROUTES } from '@/config/routes';
import { organisationsMachine, type CustomerSummary } from '@/machines/organisation/organisations.machine';
import {
  selectCreateError,
  selectCreating,
  selectOrganisations,
  selectOrganisationsError,
  selectOrganisationsStatus,
} from '@/machines/organisation/organisations.selectors';
import { inspect } from '@/lib/inspection/hub';

const TEXTS = ORGANISATION_TEXTS;

const createSchema = z.object({
  name: z.string().trim().min(1, TEXTS.create.nameRequired).max(CUSTOMER_NAME_MAX, TEXTS.create.nameTooLong),
});
type CreateValues = z.infer<typeof createSchema>;

function OrganisationRow({ organisation }: { organisation: CustomerSummary }) {
  return (
    <Paper component="li" withBorder p="sm" radius="md" style={{ listStyle: 'none' }}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Anchor component={Link} to={ROUTES.organisationDetail(organisation.id)} fw={600} aria-label={TEXTS.list.open(organisation.name)}>
          {organisation.name}
        </Anchor>
        <Group gap="xs">
          <Badge variant="light" color={organisation.role === 'owner' ? 'violet' : 'blue'} style={{ textTransform: 'none' }}>
            {organisation.role === 'owner' ? TEXTS.list.owner : TEXTS.list.member}
          </Badge>
          <Text size="sm" c="dimmed">
            {TEXTS.list.memberCount(organisation.member_count)}
          </Text>
        </Group>
      </Group>
    </Paper>
  );
}

/** /organisation: the organisations the person owns or belongs to, and the form that creates one. */
export function OrganisationList() {
  const organisations = useActorRef(organisationsMachine, { inspect });
  const items = useSelector(organisations, selectOrganisations);
  const status = useSelector(organisations, selectOrganisationsStatus);
  const loadError = useSelector(organisations, selectOrganisationsError);
  const creating = useSelector(organisations, selectCreating);
  const createError = useSelector(organisations, selectCreateError);
  const navigate = useNavigate();
  const { register, handleSubmit, formState } = useForm<CreateValues>({ resolver: zodResolver(createSchema), defaultValues: { name: '' } });

  useEffect(() => {
    const subscription = organisations.on('organisations.created', (event) => void navigate(ROUTES.organisationDetail(event.id)));
    return () => subscription.unsubscribe();
  }, [organisations, navigate]);

  const submit = handleSubmit((values) => organisations.send({ type: 'organisations.create', name: values.name }));

  return (
    <Stack gap="lg">
      <Stack gap="sm" component="section" aria-labelledby="organisations-heading">
        <Title order={2} size="h3" id="organisations-heading">
          {TEXTS.list.heading}
        </Title>
        {status === 'loading' ? (
          <Stack gap="xs" aria-busy="true" aria-label={TEXTS.list.loading}>
            <Skeleton height={48} radius="md" />
            <Skeleton height={48} radius="md" />
          </Stack>
        ) : status === 'failed' ? (
          <Alert color="red" role="alert" title={TEXTS.list.failed}>
            <Stack gap="xs">
              {loadError && <Text size="sm">{loadError}</Text>}
              <Group>
                <Button variant="default" size="xs" onClick={() => organisations.send({ type: 'organisations.refresh' })}>
                  {TEXTS.retry}
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : items.length === 0 ? (
          <Text c="dimmed">{TEXTS.list.empty}</Text>
        ) : (
          <Stack component="ul" gap="xs" p={0} m={0} aria-labelledby="organisations-heading">
            {items.map((organisation) => (
              <OrganisationRow key={organisation.id} organisation={organisation} />
            ))}
          </Stack>
        )}
      </Stack>

      <Paper
        withBorder
        p="lg"
        radius="md"
        component="form"
        noValidate
        aria-labelledby="create-organisation-heading"
        onSubmit={(event) => {
          event.preventDefault();
          if (!creating) void submit(event);
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h3" id="create-organisation-heading">
            {TEXTS.create.heading}
          </Title>
          <TextInput label={TEXTS.create.name} required maxLength={CUSTOMER_NAME_MAX} error={formState.errors.name?.message} {...register('name')} />
          {createError && (
            <Text size="sm" c="red" role="alert">
              {createError}
            </Text>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={creating}>
              {TEXTS.create.submit}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
