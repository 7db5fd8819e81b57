import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { StoredFileEntity } from './stored-file.entity';

/** Stored files' rows. The bytes are read only when asked for (the column is not selected by default). */
@Injectable()
export class FilesRepository {
  constructor(@InjectRepository(StoredFileEntity) private readonly files: Repository<StoredFileEntity>) {}

  private repo(tx?: EntityManager): Repository<StoredFileEntity> {
    return tx ? tx.getRepository(StoredFileEntity) : this.files;
  }

  async insert(
    file: Pick<StoredFileEntity, 'ownerId' | 'purpose' | 'contentType' | 'size' | 'data'>,
    tx?: EntityManager,
  ): Promise<string> {
    const repo = this.repo(tx);
    return (await repo.save(repo.create(file))).id;
  }

  findWithData(id: string): Promise<StoredFileEntity | null> {
    return this.files.createQueryBuilder('f').addSelect('f.data').where('f.id = :id', { id }).getOne();
  }

  async remove(id: string, tx?: EntityManager): Promise<void> {
    await this.repo(tx).delete({ id });
  }
}
