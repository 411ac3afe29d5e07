/**
 * A host's profile (docs/decisions/043-host-space.md): the name, photo, short bio and meeting
 * link the booking page shows. `/admin/profile` is the signed-in host's own; administrators open
 * any host's from the Hosts list (`/admin/hosts/{userId}/profile`).
 */
import { createResource, createSignal, Show, type JSX } from 'solid-js';
import { ActionNoticeView, type ActionNotice } from '../components/action-notice';
import { AdminFrame } from '../components/admin-frame';
import { ready } from '../components/async-view';
import { SaveButtons, TextArea, TextField } from '../components/fields';
import { getHostProfile, removeHostPhoto, updateHostProfile, uploadHostPhoto } from '../data';
import { adminErrorMessage } from '../errors';
import { createSaveAction } from '../forms';
import type { AdminUser } from '../session';
import { HOST_BIO_MAX, HOST_NAME_MAX, HOST_PHOTO_TYPES, type HostProfileDto } from '../../../shared/hosts';
import { errorMessage } from '../../ui/errors';
import { submitWith } from '../../ui/forms';
import type { RouteProps } from '../../router';
import { t } from '../../i18n/i18n';

export default function HostProfilePage(props: RouteProps): JSX.Element {
  return (
    <AdminFrame title={t('admin.hostSpace.profileTitle')} area="host-space">
      {(user) => <ProfileLoader userId={props.params.userId ? Number(props.params.userId) : user.id} user={user} />}
    </AdminFrame>
  );
}

function ProfileLoader(props: { userId: number; user: AdminUser }): JSX.Element {
  const [profile, { mutate, refetch }] = createResource(() => props.userId, getHostProfile);
  return (
    <>
      <Show when={profile.state === 'errored'}>
        <div class="notice notice-error" role="alert">
          <p>{errorMessage(profile.error)}</p>
          <button type="button" class="button" onClick={() => void refetch()}>
            {t('common.tryAgain')}
          </button>
        </div>
      </Show>
      <Show when={ready(profile)}>{(p) => <ProfileForm profile={p()} onChange={(next) => mutate(next)} />}</Show>
    </>
  );
}

function ProfileForm(props: { profile: HostProfileDto; onChange: (profile: HostProfileDto) => void }): JSX.Element {
  const [name, setName] = createSignal(props.profile.displayName);
  const [bio, setBio] = createSignal(props.profile.bio);
  const [meetingUrl, setMeetingUrl] = createSignal(props.profile.meetingUrl);
  const saving = createSaveAction();
  const [photoNotice, setPhotoNotice] = createSignal<ActionNotice | null>(null);
  let fileInput: HTMLInputElement | undefined;

  const save = () =>
    saving.run(async () => {
      props.onChange(await updateHostProfile(props.profile.userId, { displayName: name().trim(), bio: bio().trim(), meetingUrl: meetingUrl().trim() }));
    });

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setPhotoNotice(null);
    try {
      props.onChange(await uploadHostPhoto(props.profile.userId, file));
      setPhotoNotice({ ok: true, text: t('admin.hostSpace.photoSaved') });
    } catch (err) {
      setPhotoNotice({ ok: false, text: adminErrorMessage(err) });
    } finally {
      if (fileInput) fileInput.value = '';
    }
  };

  const removePhoto = async () => {
    try {
      await removeHostPhoto(props.profile.userId);
      props.onChange({ ...props.profile, photoUrl: null });
      setPhotoNotice({ ok: true, text: t('admin.hostSpace.photoRemoved') });
    } catch (err) {
      setPhotoNotice({ ok: false, text: adminErrorMessage(err) });
    }
  };

  return (
    <>
      <p class="lead">{t('admin.hostSpace.profileLead')}</p>
      <section class="panel" aria-labelledby="photo-heading">
        <h2 id="photo-heading">{t('admin.hostSpace.photo')}</h2>
        <Show when={props.profile.photoUrl} fallback={<p class="muted">{t('admin.hostSpace.noPhoto')}</p>}>
          {(src) => <img class="host-photo" src={src()} alt={t('admin.hostSpace.photoAlt', { name: props.profile.displayName })} width="96" height="96" />}
        </Show>
        <div class="field">
          <label for="hp-photo">{t('admin.hostSpace.photoChoose')}</label>
          <input
            id="hp-photo"
            ref={fileInput}
            type="file"
            accept={HOST_PHOTO_TYPES.join(',')}
            aria-describedby="hp-photo-hint"
            onChange={(e) => void upload(e.currentTarget.files?.[0])}
          />
          <p id="hp-photo-hint" class="field-hint">
            {t('admin.hostSpace.photoHint')}
          </p>
        </div>
        <Show when={props.profile.photoUrl}>
          <button type="button" class="button button-quiet button-danger-text" onClick={() => void removePhoto()}>
            {t('admin.hostSpace.photoRemove')}
          </button>
        </Show>
        <ActionNoticeView notice={photoNotice()} />
      </section>
      <form class="panel" onSubmit={submitWith(save)}>
        <TextField id="hp-name" label={t('admin.hostSpace.name')} value={name()} onInput={setName} required maxLength={HOST_NAME_MAX} />
        <TextArea
          id="hp-bio"
          label={t('admin.hostSpace.bio')}
          value={bio()}
          onInput={setBio}
          rows={4}
          hint={t('admin.hostSpace.bioHint', { max: HOST_BIO_MAX })}
        />
        <TextField
          id="hp-meeting"
          label={t('admin.hostSpace.meetingUrl')}
          type="url"
          inputMode="url"
          value={meetingUrl()}
          onInput={setMeetingUrl}
          hint={t('admin.hostSpace.meetingUrlHint')}
        />
        <SaveButtons action={saving} label={t('admin.hostSpace.save')} />
      </form>
    </>
  );
}
